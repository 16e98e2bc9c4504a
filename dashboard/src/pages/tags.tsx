/**
 * The workspace's tags (#/tags): each with its slug, renamed (name and slug) in place, deleted
 * (it comes off its articles), and new ones made. A refusal shows beside the field it names: a
 * taken slug names the tag that holds it. The API has no merge: to merge two tags, put the one on
 * the other's articles and delete it (docs/dashboard.md "Tags").
 */
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { createTag, deleteTag, type Tag, updateTag, useTags } from '../data/content.ts'
import { ago, when } from '../format.ts'
import { Action, canPublish, Field, Form, Loaded, ReadOnly, useSession } from '../ui.tsx'

export function TagsPage(): VNode {
  const session = useSession()
  const tags = useTags()
  const write = canPublish(session)
  return (
    <section>
      <h1>Tags</h1>
      <p class="muted">
        The tags of <strong>{session.tenantName}</strong>, shared by every site's articles. A tag's slug is
        its address on your sites; renaming keeps it on its articles.
      </p>
      {write ? null : <ReadOnly what="the tags" />}
      <Loaded state={tags}>
        {({ data }) =>
          data.length === 0 ? (
            <p class="muted">No tags yet: add one here or from an article's settings.</p>
          ) : (
            <table class="tag-table">
              <caption class="sr">Tags</caption>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Slug</th>
                  <th>Changed</th>
                  {write ? <th>Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {data.map((t) => (
                  <TagRow tag={t} write={write} reload={tags.reload} />
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
      {write ? (
        <Form
          label="New tag"
          submitLabel="Add tag"
          submit={async (d, form) => {
            const slug = String(d.get('slug') ?? '').trim()
            await createTag(String(d.get('name')).trim(), slug || undefined)
            form.reset()
            await tags.reload()
          }}
        >
          <h2>New tag</h2>
          <Field label="Name">
            <input name="name" required maxlength={100} placeholder="Garden" />
          </Field>
          <Field
            label="Slug (optional)"
            hint="Lower-case words joined by hyphens; made from the name when empty."
          >
            <input name="slug" class="mono" maxlength={120} placeholder="garden" />
          </Field>
        </Form>
      ) : null}
    </section>
  )
}

function TagRow({ tag, write, reload }: { tag: Tag; write: boolean; reload: () => Promise<void> }): VNode {
  const [editing, setEditing] = useState(false)
  if (editing)
    return (
      <tr data-tag={tag.slug}>
        <td colSpan={write ? 4 : 3}>
          <RenameForm
            tag={tag}
            done={async () => {
              await reload()
              setEditing(false)
            }}
            cancel={() => setEditing(false)}
          />
        </td>
      </tr>
    )
  return (
    <tr data-tag={tag.slug}>
      <td data-label="Name">
        <span class="clip tag-name" title={tag.name}>
          {tag.name}
        </span>
      </td>
      <td data-label="Slug">
        <code class="clip" title={tag.slug}>
          {tag.slug}
        </code>
      </td>
      <td data-label="Changed">
        <span title={when(tag.updated_at)}>{ago(tag.updated_at)}</span>
      </td>
      {write ? (
        <td data-label="Actions">
          <div class="row wrap">
            <button type="button" onClick={() => setEditing(true)} aria-label={`Rename the tag ${tag.name}`}>
              Rename
            </button>
            <Action
              kind="danger"
              label={`Delete the tag ${tag.name}`}
              confirm={`Delete the tag “${tag.name}”? It comes off every article that has it; the articles stay.`}
              confirmLabel="Delete"
              run={async () => {
                await deleteTag(tag.id)
                await reload()
              }}
            >
              Delete
            </Action>
          </div>
        </td>
      ) : null}
    </tr>
  )
}

/** Name and slug of one tag; only what changed is sent. */
function RenameForm({
  tag,
  done,
  cancel,
}: {
  tag: Tag
  done: () => Promise<void>
  cancel: () => void
}): VNode {
  return (
    <div class="rename">
      <Form
        label={`Rename the tag ${tag.name}`}
        submitLabel="Save"
        submit={async (d) => {
          const name = String(d.get('name')).trim()
          const slug = String(d.get('slug')).trim()
          const body = {
            ...(name !== tag.name && { name }),
            ...(slug && slug !== tag.slug && { slug }),
          }
          if (Object.keys(body).length) await updateTag(tag.id, body)
          await done()
        }}
      >
        <Field label="Name">
          <input name="name" required maxlength={100} defaultValue={tag.name} />
        </Field>
        <Field label="Slug" hint="Its address on your sites; links to the old one stop finding it.">
          <input name="slug" class="mono" maxlength={120} defaultValue={tag.slug} />
        </Field>
      </Form>
      <button type="button" class="link" onClick={cancel}>
        Cancel
      </button>
    </div>
  )
}
