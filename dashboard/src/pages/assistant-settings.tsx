import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { type AssistantSettings, saveAssistantSettings } from '../data/assistant.ts'
import { type Credential, updateCredential, useCredentials } from '../data/credentials.ts'
import { canWrite, Field, Form, useSession } from '../ui.tsx'

/**
 * The assistant's model, set on its page: the provider (or the one of the tenant's AI key), the
 * model id, the environment whose keys it uses, the model endpoint, and the tenant's own
 * instructions. Owners and admins change them (PUT /v1/assistant/settings); members see what the
 * next turn will use. The endpoint is the base URL of the OpenAI-compatible key the assistant uses
 * (PATCH /api/credentials/{id}): the server checks it against the outbound address policy.
 */

/**
 * The OpenAI key a turn uses, as the server picks it: this environment, unexpired first, the most
 * recently created or rotated.
 */
function openaiKey(all: Credential[], environment: string): Credential | undefined {
  const at = (c: Credential) => Date.parse(c.rotated_at ?? c.created_at)
  return all
    .filter((c) => c.provider.slug === 'openai' && c.environment === environment)
    .sort((a, b) => Number(a.status === 'expired') - Number(b.status === 'expired') || at(b) - at(a))[0]
}

const text = (data: FormData, name: string) => {
  const value = String(data.get(name) ?? '').trim()
  return value ? value : null
}

export function SettingsPanel({
  settings,
  saved,
}: {
  settings: AssistantSettings
  saved: () => void
}): VNode {
  const session = useSession()
  const [open, setOpen] = useState(false)
  const s = settings
  const credentials = useCredentials()
  const key =
    s.effective.provider === 'openai'
      ? openaiKey(credentials.data?.data ?? [], s.credential_environment)
      : undefined
  const summary = (
    <p class="muted">
      Model:{' '}
      {s.effective.credential ? (
        <>
          <code>{s.effective.provider}</code> <code>{s.effective.model}</code>
        </>
      ) : (
        <strong>none yet</strong>
      )}{' '}
      · keys of <strong>{s.credential_environment}</strong>
      {key?.base_url ? (
        <>
          {' '}
          · endpoint <code class="endpoint">{key.base_url}</code>
        </>
      ) : null}
      {s.instructions ? ' · with your instructions' : ''}
      {canWrite(session) ? (
        <>
          {' '}
          <button type="button" class="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Close settings' : 'Settings'}
          </button>
        </>
      ) : null}
    </p>
  )
  if (!open || !canWrite(session)) return summary
  return (
    <>
      {summary}
      <Form
        label="Assistant settings"
        submitLabel="Save settings"
        submit={async (data: FormData) => {
          // The endpoint first: a refused URL (the outbound address policy) leaves everything as it was.
          const endpoint = text(data, 'base_url')
          if (key && endpoint !== key.base_url) {
            await updateCredential(key.id, { base_url: endpoint })
            credentials.reload()
          }
          // The selects offer only the values the API takes; it checks them again.
          await saveAssistantSettings({
            provider: text(data, 'provider') as AssistantSettings['provider'],
            model: text(data, 'model'),
            credential_environment: data.get(
              'credential_environment',
            ) as AssistantSettings['credential_environment'],
            instructions: text(data, 'instructions'),
          })
          setOpen(false)
          saved()
        }}
      >
        <Field
          label="Provider"
          hint="Which of your AI keys the assistant uses; automatic takes OpenAI first, then Anthropic"
        >
          <select name="provider">
            <option value="" selected={s.provider === null}>
              Automatic
            </option>
            <option value="openai" selected={s.provider === 'openai'}>
              OpenAI-compatible
            </option>
            <option value="anthropic" selected={s.provider === 'anthropic'}>
              Anthropic
            </option>
          </select>
        </Field>
        <Field
          label="Model"
          hint="The model id; empty: the provider's default (gpt-4o-mini, claude-sonnet-4-6)"
        >
          <input
            name="model"
            maxlength={100}
            pattern="[A-Za-z0-9._:/@\\-]+"
            value={s.model ?? ''}
            placeholder={s.effective.model ?? ''}
          />
        </Field>
        {key ? (
          <Field
            label="API endpoint"
            hint={`The OpenAI-compatible API the key “${key.name}” calls (e.g. https://openrouter.ai/api/v1); empty: OpenAI's`}
          >
            <input
              name="base_url"
              type="url"
              maxlength={500}
              value={key.base_url ?? ''}
              placeholder="https://api.openai.com/v1"
            />
          </Field>
        ) : null}
        <Field
          label="Keys of the environment"
          hint="The assistant uses the AI key saved for this environment under Credentials"
        >
          <select name="credential_environment">
            {(['production', 'staging', 'development'] as const).map((env) => (
              <option value={env} selected={s.credential_environment === env}>
                {env}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Instructions"
          hint="Added to the assistant's system prompt for every conversation and automation"
        >
          <textarea name="instructions" rows={4} maxlength={4000}>
            {s.instructions ?? ''}
          </textarea>
        </Field>
      </Form>
    </>
  )
}
