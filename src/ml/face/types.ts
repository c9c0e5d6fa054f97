/**
 * A face found in a frame, in that frame's pixels. Keypoints follow BlazeFace's order: right eye, left eye
 * (the subject's), nose tip, mouth centre, right ear tragion, left ear tragion.
 * @example
 * const f: FaceDetection = { x: 120, y: 40, width: 64, height: 64, score: 0.98, keypoints: [[140, 60], [170, 60], [155, 75], [155, 90], [125, 65], [183, 65]] };
 */
export interface FaceDetection {
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0..1, the detector's sigmoid score (blended over the overlapping anchors). */
  score: number;
  keypoints: Array<[number, number]>;
}
