/** Text from vidx's messages with its commands, which they write in backticks, shown as code. */

/**
 * The text with each `command` as <code>.
 * @example
 * <Coded text="Run `vidx models import <folder>` here." />
 */
export function Coded({ text }: { text: string }) {
  return <>{text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
