/**
 * esbuild plugin for the single binary: every `require` of a native addon becomes a call to
 * src/sea/native.ts's loadNative (process.dlopen of the unpacked copy), because the binary's own `require`
 * loads built-in modules only. sharp is taken in its CommonJS build for the same reason. Two packages compute
 * the require so the bundler cannot see it, and get a
 * one-line source patch each: onnxruntime-node's binding path (platform and arch in a template string) and
 * transformers.js's `createRequire(import.meta.url)("onnxruntime-node")`. Each patch fails the build when
 * its pattern is no longer found, so a dependency update cannot silently break the binary.
 */
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';

/** Source edits for files whose path matches `file`: each `find` must occur and becomes its `replace`. */
interface Patch {
  file: RegExp;
  edits: Array<[find: string, replace: string]>;
  prepend?: string;
}

/** A require that fails at run time the way a missing file does, so the package's own fallback goes on. */
const MISSING = '(() => { throw new Error("not in the vidx binary"); })()';

const PATCHES: Patch[] = [
  {
    file: /[\\/]onnxruntime-node[\\/]dist[\\/]binding\.js$/,
    edits: [['require(`../bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node`)', 'require("vidx-native:native/onnxruntime/onnxruntime_binding.node")']],
  },
  {
    // sharp first tries a locally compiled addon (a glob the bundler cannot resolve), then the prebuilt package.
    file: /[\\/]sharp[\\/]dist[\\/]sharp\.cjs$/,
    edits: [
      ['require(`../src/build/Release/sharp-${runtimePlatform}-${version}.node`)', MISSING],
      ['require(`../src/build/Release/sharp-wasm32-${version}.node`)', MISSING],
    ],
  },
  {
    // Version facts (libheif present → .avif suffix) from the bundled JSON instead of a computed require; the
    // binary is linux-x64 only. The probe of libvips' path is pointless once the library is unpacked.
    file: /[\\/]sharp[\\/]dist[\\/]utility\.cjs$/,
    edits: [['require(`@img/sharp-${runtimePlatform}/versions`)', 'require("@img/sharp-libvips-linux-x64/versions")']],
  },
  {
    file: /[\\/]@img[\\/]sharp-linux-x64[\\/]index\.cjs$/,
    edits: [["try { require.resolve('@img/sharp-libvips-linux-x64/binary'); } catch {}", '']],
  },
  {
    // usearch finds its prebuilt addon by walking up from its own file (node-gyp-build); the binary has one copy.
    file: /[\\/]usearch[\\/]javascript[\\/]dist[\\/](esm|cjs)[\\/]usearch\.js$/,
    edits: [['build(getBuildDir(getDirName()))', 'require("vidx-native:native/usearch.node")']],
  },
  {
    file: /[\\/]@huggingface[\\/]transformers[\\/]dist[\\/]transformers\.node\.mjs$/,
    edits: [['requireFromHere("onnxruntime-node")', '__vidx_onnxruntime_node']],
    prepend: 'import __vidx_onnxruntime_node from "onnxruntime-node";\n',
  },
];

/**
 * The plugin; `nativeFiles` maps each addon's absolute path in node_modules to its place in the unpacked folder.
 * @example
 * await build({ …, plugins: [nativePlugin(root, new Map([[abs, 'native/better_sqlite3.node']]))] });
 */
export function nativePlugin(root: string, nativeFiles: Map<string, string>): Plugin {
  const loader = resolve(root, 'src', 'sea', 'native.ts');
  // esbuild resolves through links: where node_modules is a link (a git worktree sharing another's), the
  // addons are required by their real paths, so those find their place too.
  const byRealPath = new Map([...nativeFiles].map(([abs, target]) => [realOrSelf(abs), target]));
  return {
    name: 'vidx-native',
    setup(build) {
      // sharp's ESM build requires its addon through createRequire(import.meta.url), out of the bundler's
      // sight; its CommonJS build uses plain requires, which the rules below can redirect.
      build.onResolve({ filter: /^sharp$/ }, async (args) => {
        if ((args.pluginData as { cjs?: boolean } | undefined)?.cjs) return undefined;
        const r = await build.resolve(args.path, { kind: 'require-call', resolveDir: args.resolveDir, pluginData: { cjs: true } });
        if (r.errors.length > 0) return { errors: r.errors };
        return { path: r.path };
      });
      build.onResolve({ filter: /^vidx-native:/ }, (args) => ({ path: args.path.slice('vidx-native:'.length), namespace: 'vidx-native' }));
      // Relative or absolute requires of a .node file (sharp's index.cjs, bindings-style loaders).
      build.onResolve({ filter: /^\.{0,2}\/.*\.node$/ }, (args) => {
        const abs = resolve(args.resolveDir, args.path);
        const target = nativeFiles.get(abs) ?? byRealPath.get(realOrSelf(abs));
        if (target) return { path: target, namespace: 'vidx-native' };
        return { path: abs, namespace: 'vidx-missing-native' };
      });
      build.onLoad({ filter: /.*/, namespace: 'vidx-native' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(loader)}).loadNative(${JSON.stringify(args.path)});`,
        resolveDir: root,
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace: 'vidx-missing-native' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`native addon ${args.path} is not packaged in this vidx binary`)});`,
        loader: 'js',
      }));
      for (const patch of PATCHES) {
        build.onLoad({ filter: patch.file }, async (args) => {
          let text = await readFile(args.path, 'utf8');
          for (const [find, replace] of patch.edits) {
            if (!text.includes(find)) throw new Error(`build-binary: ${args.path} no longer contains ${find}; update scripts/binary/esbuild-native.ts`);
            text = text.split(find).join(replace);
          }
          return { contents: (patch.prepend ?? '') + text, loader: 'js' };
        });
      }
    },
  };
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
