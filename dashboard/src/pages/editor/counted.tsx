import type { VNode } from 'preact'

/** A text field with its character count against the API's bound, and a softer hint where one helps. */
export function Counted({
  label,
  value,
  max,
  soft,
  hint,
  multiline,
  placeholder,
  onInput,
}: {
  label: string
  value: string
  max: number
  soft?: number
  hint?: string
  multiline?: boolean
  placeholder?: string
  onInput: (v: string) => void
}): VNode {
  const n = value.trim().length
  const tone = n > max ? 'bad' : soft && n > soft ? 'warn' : ''
  const input = (e: Event) => onInput((e.target as HTMLInputElement).value)
  return (
    <label class="field">
      <span>{label}</span>
      {multiline ? (
        <textarea
          rows={3}
          aria-label={label}
          maxlength={max}
          value={value}
          placeholder={placeholder}
          onInput={input}
        ></textarea>
      ) : (
        <input aria-label={label} maxlength={max} value={value} placeholder={placeholder} onInput={input} />
      )}
      <small>
        <span class={`count ${tone}`} data-count={label}>
          {n} / {max}
        </span>
        {soft ? ` · search results show about ${soft}` : ''}
        {hint ? ` · ${hint}` : ''}
      </small>
    </label>
  )
}
