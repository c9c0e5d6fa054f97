/**
 * Entry of the single binary's threads (bundled on its own by scripts/build-binary.ts and unpacked to
 * `<cache>/<build id>/workers/worker.cjs`): points the addon loader at the unpacked folder its settings name,
 * then runs the same thread code as a checkout does.
 */
import './thread-native-root.js';
import '../services/threads/thread.js';
