// attnlab/wasm/errors.js: the error every attnlab function throws, and the names of the C status
// codes (src/base.h, al_status) it carries as `code`.
// Deliberately not here: messages (each is written where its check runs), any import: every glue
// module may import this one.

export const STATUS_NAMES = [
  'AL_OK',
  'AL_ERR_ARGUMENT',
  'AL_ERR_SHAPE',
  'AL_ERR_RANGE',
  'AL_ERR_NONFINITE',
  'AL_ERR_NOMEM',
  'AL_ERR_FORMAT',
  'AL_ERR_UNSUPPORTED',
  'AL_ERR_OVERFLOW',
];

/** An error from attnlab: input validation (code 'AL_ERR_ARGUMENT', 'AL_ERR_SHAPE', ...) or a C status. */
export class AttnlabError extends Error {
  constructor(message, code = 'AL_ERR_ARGUMENT') {
    super(message);
    this.name = 'AttnlabError';
    this.code = code;
  }
}

export function statusName(code) {
  return STATUS_NAMES[code] ?? `status ${code}`;
}
