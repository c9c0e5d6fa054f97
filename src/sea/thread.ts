/**
 * Entry of the single binary's threads (bundled on its own by scripts/build-binary.ts and unpacked to
 * `<cache>/<build id>/threads/thread.cjs`): points the addon loader at the unpacked folder its settings name,
 * then runs the same thread code as a checkout does: a search thread's (settings with `role: 'search'`, which
 * opens the database) or an analysis thread's. One bundle for both: most of their code is shared.
 */
import './thread-native-root.js';
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { useSqliteNative } from '../store/connection.js';
import { loadNative } from './native.js';

const settings = workerData as { role?: string; nativeRoot: string };
if (settings.role === 'search') {
  useSqliteNative({ nativeBinding: loadNative('native/better_sqlite3.node') as object, vecExtension: join(settings.nativeRoot, 'native', 'vec0.so') });
  // Loaded once the native parts are set: the search thread opens its database as it starts.
  void import('../startup/search-thread.js');
} else {
  void import('../services/threads/thread.js');
}
