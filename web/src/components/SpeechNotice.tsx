/**
 * Says, on an item without a transcript, that it has none because speech recognition is not installed, so a
 * search that finds nothing said in it is not a mystery; admins get a link to install the model. Items with
 * a transcript (subtitles, or speech recognised before) need no such word.
 */
import { useSession } from '../context.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

/**
 * A notice for an item without a transcript while the server has no speech recognition, worded for a video
 * or for audio (a voice memo); nothing otherwise.
 * @example
 * {lines.length === 0 && <SpeechNotice kind="audio" />}
 */
export function SpeechNotice({ kind }: { kind: 'video' | 'audio' }) {
  const { api, me } = useSession();
  const health = useLoad(() => api.health(), [api]);
  if (health.value?.capabilities.asr?.available !== false) return null;
  return (
    <p class="notice" role="note" data-notice="no-speech">
      {t(kind === 'audio' ? 'noSpeechAudio' : 'noSpeechVideo')} {me.role === 'admin' ? <a href={href('models')}>{t('installInModels')}</a> : t('askAdmin')}
    </p>
  );
}
