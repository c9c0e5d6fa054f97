/**
 * Entry of the single binary's search threads (bundled on its own by scripts/build-binary.ts and unpacked to
 * `<cache>/<build id>/threads/search-thread.cjs`): points the addon loader and SQLite at the unpacked folder its
 * settings name, then runs the same search thread as a checkout does.
 */
import './thread-native-root.js';
import { join } from 'node:path';
import { workerData } from 'node:worker_threads';
import { useSqliteNative } from '../store/connection.js';
import { loadNative } from './native.js';

const root = (workerData as { nativeRoot: string }).nativeRoot;
useSqliteNative({ nativeBinding: loadNative('native/better_sqlite3.node') as object, vecExtension: join(root, 'native', 'vec0.so') });
// Loaded after the native parts are set: the thread opens its database as it starts.
void import('../startup/search-thread.js');
