// scripts/bench/blas.mjs: how the PyTorch contenders find an optimised BLAS. Debian's
// python3-torch calls whatever libblas.so.3 the dynamic loader finds: by default the system's
// alternative, Debian's reference BLAS (about 3 GF/s at 256³ on one core), which no researcher
// would time. scripts/setup.sh installs Debian's OpenBLAS (libopenblas0-pthread) and puts the
// system's alternatives back as they were; the bench then starts torch_server.py with
// LD_LIBRARY_PATH at the package's own directory, so the server (and only it) loads OpenBLAS's
// libblas.so.3, with OPENBLAS_NUM_THREADS (and OMP_NUM_THREADS) = the contender's thread count.
// The server reports what it really loaded (/proc/self/maps, torch.__config__.show(), a 256³
// sgemm in GF/s): the report prints that, not this file's intent.
//
//   const { env, blas } = torchEnv(1);   // spawn(python, [...], { env })

import { existsSync } from 'node:fs';
import path from 'node:path';

const MULTIARCH = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' }[process.arch] ?? '';
/** Where libopenblas0-pthread puts its libblas.so.3 (`dpkg -L libopenblas0-pthread`). */
export const OPENBLAS_DIR = `/usr/lib/${MULTIARCH}/openblas-pthread`;

/** The environment of a torch_server.py with `threads` threads, and the BLAS it asks for. */
export function torchEnv(threads) {
  const env = { ...process.env, OMP_NUM_THREADS: String(threads), OPENBLAS_NUM_THREADS: String(threads) };
  const have = existsSync(path.join(OPENBLAS_DIR, 'libblas.so.3'));
  if (have) env.LD_LIBRARY_PATH = [OPENBLAS_DIR, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return {
    env,
    openblas: have,
    blas: have
      ? `Debian OpenBLAS 0.3 (libopenblas0-pthread): ${OPENBLAS_DIR}/libblas.so.3 by LD_LIBRARY_PATH, OPENBLAS_NUM_THREADS=${threads} (system alternatives untouched)`
      : `the system's libblas.so.3 (${OPENBLAS_DIR} is missing: run scripts/setup.sh as root for libopenblas0-pthread)`,
  };
}
