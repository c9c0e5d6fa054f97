#!/usr/bin/env bash
# Installs the Debian packages vidx's tests and media pipeline use, when they are missing:
# ffmpeg (probe/decode), espeak-ng (test speech), fonts-dejavu-core, fonts-liberation2 and
# fonts-freefont-ttf (drawtext slides), pocketsphinx-testdata (real recorded speech), tesseract-ocr with
# tesseract-ocr-deu (German letters in OCR; optional at run time), chromium (the web page's browser tests,
# driven by playwright-core; never a browser download), python3-skimage (photos with faces, a cat and logos
# for the face tests, under /usr/lib/python3/dist-packages/skimage/data), python3-imageio (real footage with its own
# sound, cockatoo.mp4, for the duplicates tests), redis-server (the job queue of the worker
# tests: each test starts its own on a loopback port; nothing is started as a service), libheif-examples and
# libimage-exiftool-perl (heif-enc and exiftool write the tests' HEIC photos and their EXIF). Runs apt-get only when something is missing.
set -euo pipefail
need=()
command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 || need+=(ffmpeg)
command -v espeak-ng >/dev/null 2>&1 || need+=(espeak-ng)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -f /usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf ] || need+=(fonts-liberation2)
[ -f /usr/share/fonts/truetype/freefont/FreeSerif.ttf ] || need+=(fonts-freefont-ttf)
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
dpkg -s tesseract-ocr-deu >/dev/null 2>&1 || need+=(tesseract-ocr-deu)
dpkg -s pocketsphinx-testdata >/dev/null 2>&1 || need+=(pocketsphinx-testdata)
[ -f /usr/lib/python3/dist-packages/skimage/data/astronaut.png ] || need+=(python3-skimage)
[ -f /usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4 ] || need+=(python3-imageio)
command -v heif-enc >/dev/null 2>&1 || need+=(libheif-examples)
command -v exiftool >/dev/null 2>&1 || need+=(libimage-exiftool-perl)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
echo "vidx: installing system packages: ${need[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "vidx: run as root: apt-get install -y ${need[*]}" >&2; exit 1
  fi
else SUDO=; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
