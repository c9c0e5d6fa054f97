/**
 * Entry of the single binary's analysis worker thread (bundled on its own by scripts/build-binary.ts and
 * unpacked to `<cache>/<build id>/workers/analysis.cjs`): points the addon loader at the unpacked folder the
 * main thread named in VIDX_NATIVE_ROOT, then runs the same thread code as a checkout does.
 */
import './worker-native-root.js';
import '../services/analysis/worker/thread.js';
