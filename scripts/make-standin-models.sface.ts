/**
 * A real-sized stand-in for OpenCV Zoo's SFace (`face_recognition_sface_2021dec.onnx`, 38.7 MB float32,
 * input `data` 1×3×112×112 RGB 0..255, output `fc1` 1×128) for timing the face stage. SFace's exact layers
 * could not be read here (the file is out of reach), so this is a MobileFaceNet-style net (inverted residual
 * blocks with depthwise 3×3 convolutions and PReLU, a global depthwise 7×7, a fully connected embedding) at
 * twice MobileFaceNet's width: ~0.85 GMAC per face, about four times MobileFaceNet's 0.22, and a file of
 * SFace's size. A pessimistic stand-in on purpose: the cost it measures should be an upper bound.
 */
import { encodeModel, Graph, int, ints } from './make-fixture-models.onnx.js';
import type { RepoFiles } from './make-fixture-models.js';
import { Nn } from './make-standin-models.nn.js';

function sfaceGraph(): Graph {
  const nn = new Nn(new Graph('standin-sface'), false);
  nn.g.input('data', 'float32', [1, 3, 112, 112]);
  const conv = (x: string, outC: number, inC: number, k: number, stride: number, group = 1, pad = (k - 1) / 2) =>
    nn.op('Conv', [x, nn.f32([outC, inC / group, k, k], 1 / Math.sqrt((inC / group) * k * k)), nn.f32([outC], 0.02)], {
      kernel_shape: ints([k, k]), strides: ints([stride, stride]), pads: ints([pad, pad, pad, pad]), group: int(group),
    });
  const prelu = (x: string, c: number) => nn.op('PRelu', [x, nn.f32([c, 1, 1], 0.25)]);
  /** Inverted residual: 1×1 expand, depthwise 3×3, 1×1 project; a shortcut when shapes allow. */
  const block = (x: string, inC: number, outC: number, stride: number, t: number) => {
    const h = inC * t;
    const y = conv(prelu(conv(prelu(conv(x, h, inC, 1, 1), h), h, h, 3, stride, h), h), outC, h, 1, 1);
    return stride === 1 && inC === outC ? nn.op('Add', [x, y]) : y;
  };
  let x = nn.op('Mul', [nn.op('Sub', ['data', nn.fill([1], 127.5)]), nn.fill([1], 1 / 128)]);
  x = prelu(conv(x, 128, 3, 3, 2), 128); // 56×56
  x = prelu(conv(x, 128, 128, 3, 1, 128), 128);
  x = block(x, 128, 128, 2, 2); // 28×28
  for (let i = 0; i < 4; i++) x = block(x, 128, 128, 1, 2);
  x = block(x, 128, 256, 2, 4); // 14×14
  for (let i = 0; i < 6; i++) x = block(x, 256, 256, 1, 2);
  x = block(x, 256, 256, 2, 4); // 7×7
  for (let i = 0; i < 2; i++) x = block(x, 256, 256, 1, 2);
  const wide = prelu(conv(x, 1024, 256, 1, 1), 1024);
  const pooled = nn.op('Flatten', [conv(wide, 1024, 1024, 7, 1, 1024, 0)], { axis: int(1) }); // global depthwise 7×7
  // The fully connected head over the 7×7 map brings the file to SFace's size (its weights dominate the bytes).
  const map = nn.op('Flatten', [x], { axis: int(1) });
  const fc = nn.op('Add', [nn.op('MatMul', [map, nn.f32([256 * 49, 512], 1 / Math.sqrt(256 * 49))]), nn.op('MatMul', [pooled, nn.f32([1024, 512], 1 / 32)])]);
  nn.g.node('MatMul', [fc, nn.f32([512, 128], 1 / Math.sqrt(512))], ['fc1']);
  nn.g.output('fc1', 'float32', [1, 128]);
  return nn.g;
}

/**
 * The file of `opencv/face_recognition_sface` as the manifest names it, with stand-in weights.
 * @example
 * writeRepo(modelsDir, 'opencv/face_recognition_sface', sfaceStandinFiles());
 */
export function sfaceStandinFiles(): RepoFiles {
  return { 'face_recognition_sface_2021dec.onnx': encodeModel(sfaceGraph()) };
}
