/**
 * Says when speech recognition is not installed, so a search that finds nothing spoken is not a mystery:
 * subtitles are used where there are some; admins get a link to install the model.
 */
import { useSession } from '../context.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

/**
 * A notice while the server has no speech recognition; nothing otherwise.
 * @example
 * <SpeechNotice />
 */
export function SpeechNotice() {
  const { api, me } = useSession();
  const health = useLoad(() => api.health(), [api]);
  if (health.value?.capabilities.asr?.available !== false) return null;
  return (
    <p class="notice" role="note" data-notice="no-speech">
      {t('noSpeech')} {me.role === 'admin' ? <a href={href('models')}>{t('installInModels')}</a> : t('askAdmin')}
    </p>
  );
}
