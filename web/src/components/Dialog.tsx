/**
 * In-page confirmations instead of the browser's `confirm()`: a modal `<dialog>` (focus stays inside, Esc
 * cancels) that says what will happen, with the dangerous choice named in words.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';

/** What a confirmation says. */
export interface Question {
  title: string;
  /** What happens, in full sentences (for example what happens to the files on disk). */
  body: string;
  /** The button that goes ahead ("Delete"). */
  confirm: string;
  danger?: boolean;
}

let show: ((q: Question, answer: (yes: boolean) => void) => void) | null = null;

/**
 * Asks in the page and resolves with the answer (false when cancelled or no host is mounted).
 * @example
 * if (await ask({ title: 'Delete “Trips”?', body: '…', confirm: 'Delete', danger: true })) remove();
 */
export function ask(q: Question): Promise<boolean> {
  return new Promise((resolve) => (show ? show(q, resolve) : resolve(false)));
}

/**
 * Where the dialogs appear; mounted once by the App.
 * @example
 * <DialogHost />
 */
export function DialogHost() {
  const [open, setOpen] = useState<{ q: Question; answer: (yes: boolean) => void } | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    show = (q, answer) => setOpen({ q, answer });
    return () => {
      show = null;
    };
  }, []);
  useEffect(() => {
    if (open && ref.current && !ref.current.open) ref.current.showModal();
  }, [open]);
  const close = (yes: boolean) => {
    ref.current?.close();
    open?.answer(yes);
    setOpen(null);
  };
  if (!open) return null;
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="dialog-title" aria-describedby="dialog-body" onCancel={(e) => { e.preventDefault(); close(false); }}>
      <h2 id="dialog-title">{open.q.title}</h2>
      <p id="dialog-body">{open.q.body}</p>
      <div class="row end">
        {/* biome-ignore lint/a11y/noAutofocus: a confirmation opens on the safe choice, as the WAI-ARIA dialog pattern advises */}
        <button type="button" onClick={() => close(false)} autoFocus>{t('cancel')}</button>
        <button type="button" class={open.q.danger ? 'danger' : 'primary'} onClick={() => close(true)}>{open.q.confirm}</button>
      </div>
    </dialog>
  );
}
