#!/usr/bin/env bash
# Install everything attnlab's build, tests and demo need on Debian 12, as root:
#   gcc/make (native build, sanitizers), clang + libclang-rt (libFuzzer), emscripten (the .wasm),
#   wabt (wasm2wat checks), wordnet-base (the irregular plurals' source, scripts/build-plurals.mjs),
#   chromium (browser tests), firefox-esr, webkit2gtk-driver and xvfb (the smoke suite in Firefox
#   and WebKit: make test-firefox, make test-webkit), node + npm (glue, tests), the Python package's needs (python3-torch,
#   venv, setuptools, wheel, pytest: make test-python; Jupyter and nbconvert for the example
#   notebook's test), and the npm dev dependencies (npm ci).
# Safe to run again: apt-get skips what is installed. Nothing is downloaded outside Debian's
# and npm's registries (no PyPI: the Python package installs offline over python3-torch).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v make >/dev/null || need+=(make)
command -v gcc >/dev/null || need+=(gcc libc6-dev)
command -v emcc >/dev/null || need+=(emscripten)
command -v wasm2wat >/dev/null || need+=(wabt)
command -v clang >/dev/null || need+=(clang)
command -v clang-format >/dev/null || need+=(clang-format)
# libFuzzer and the sanitizer runtimes for clang (make fuzz, make fuzz-smoke)
ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
[ -x /usr/bin/chromium ] || need+=(chromium)
# the smoke suite in Firefox (tests/engines/firefox.test.js: firefox-esr over WebDriver BiDi, no
# geckodriver) and WebKit (webkit.test.js: WebKitWebDriver drives the WebKitGTK MiniBrowser, which
# needs an X display: the test starts its own Xvfb)
[ -x /usr/bin/firefox-esr ] || need+=(firefox-esr)
command -v WebKitWebDriver >/dev/null || need+=(webkit2gtk-driver)
command -v Xvfb >/dev/null || need+=(xvfb)
# a CJK font, or the Chinese page (lang=zh) renders as boxes in headless Chromium
[ -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] || need+=(fonts-wqy-zenhei)
# WordNet's noun exceptions, the source of the tokenizer's irregular plurals
# (scripts/build-plurals.mjs; tests/js/plurals.test.js checks the committed list against it)
[ -f /usr/share/wordnet/noun.exc ] || need+=(wordnet-base)
# the Python package (python/, docs/python.md): PyTorch 1.13 from Debian, a venv over it, pip
# install --no-build-isolation (setuptools + wheel from Debian), pytest; and for the example
# notebook's test, Jupyter with nbconvert, an IPython kernel and nbformat
for p in python3-torch python3-venv python3-setuptools python3-wheel python3-pytest \
  jupyter-notebook python3-nbconvert python3-ipykernel python3-nbformat; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup: missing ${need[*]}; run as root or: sudo apt-get install -y ${need[*]}" >&2
    exit 1
  fi
  echo "setup: apt-get install ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# Debian's OpenBLAS for the benchmark's PyTorch contenders (scripts/bench/blas.mjs loads it into
# torch_server.py alone with LD_LIBRARY_PATH). Installing it makes it the system's libblas.so.3 /
# liblapack.so.3 alternative; put back whatever was chosen before, so nothing else on the machine
# (numpy, the Python tests) changes BLAS because of the benchmark.
if ! dpkg -s libopenblas0-pthread >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup: libopenblas0-pthread missing (the bench's PyTorch runs on the reference BLAS without it); as root: apt-get install -y libopenblas0-pthread" >&2
  else
    arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
    before=()
    for alt in "libblas.so.3-$arch" "liblapack.so.3-$arch"; do
      before+=("$alt=$(update-alternatives --query "$alt" 2>/dev/null | sed -n 's/^Value: //p')")
    done
    echo "setup: apt-get install libopenblas0-pthread (alternatives kept as they are)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libopenblas0-pthread >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libopenblas0-pthread >/dev/null; }
    for pair in "${before[@]}"; do
      alt=${pair%%=*} value=${pair#*=}
      [ -n "$value" ] && update-alternatives --set "$alt" "$value" >/dev/null
    done
  fi
fi

echo "setup: npm ci"
npm ci --no-audit --no-fund --loglevel=error
echo "setup: done ($(emcc --version 2>/dev/null | head -n1 | cut -c1-60); node $(node --version))"
