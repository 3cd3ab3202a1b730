/*
 * io/json.h: a strict, allocation-free JSON reader for the safetensors header.
 *
 *     struct json_error e;
 *     if (json_validate(text, n, &e) != 0) ... e.pos, e.what ...   // syntax, UTF-8, depth
 *     struct json_cursor c = { text, n, 0 };                        // then walk it by schema
 *     json_ws(&c);  if (json_peek(&c) == '{') ...
 *
 * Two layers. json_validate() checks a whole document once (RFC 8259 grammar, strict UTF-8,
 * string escapes including \u surrogate pairs, a nesting cap of JSON_MAX_DEPTH) without recursion
 * and without allocating: the open containers are bits of a 64-bit word. The cursor functions
 * then read an already validated document value by value, so the loader can walk its fixed
 * schema and decide what to allocate only after the whole header has been checked. The cursor
 * functions still check bounds on every byte, so a misuse reads nothing outside the text.
 *
 * Deliberately not here: a DOM, floating-point numbers (safetensors needs only integers: shapes
 * and offsets), or duplicate-key detection (the loader knows which keys matter).
 * Follows RFC 8259 (JSON) and RFC 3629 (UTF-8, no overlongs, no surrogates, <= U+10FFFF).
 */
#ifndef AL_IO_JSON_H
#define AL_IO_JSON_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 64 /* nesting cap: one bit per open container */

struct json_error {
    size_t pos;       /* byte offset of the problem in the text */
    const char *what; /* a static English description, e.g. "unterminated string" */
};

/* 0 when text [n] is exactly one JSON value with optional whitespace around it; else -1 and *e. */
int json_validate(const char *text, size_t n, struct json_error *e);

/* 0 when s [n] is well-formed UTF-8; else -1 and *bad the offset of the first bad byte. */
int json_utf8_check(const uint8_t *s, size_t n, size_t *bad);

struct json_cursor {
    const char *s; /* [n] the validated text */
    size_t n;
    size_t i; /* the next byte to read */
};

/* Skip whitespace. */
void json_ws(struct json_cursor *c);
/* The next byte, or 0 at the end. */
int json_peek(const struct json_cursor *c);
/* Consume byte ch (after whitespace); 0 when it was there, else -1 and nothing consumed. */
int json_eat(struct json_cursor *c, int ch);

/* A short name for the value starting at the cursor: "an object", "a string", "a number", ... */
const char *json_kind(const struct json_cursor *c);

/*
 * Read the string at the cursor (which must be at its opening quote). *raw and *raw_len: the bytes
 * between the quotes, undecoded (for messages). When out is non-NULL it receives the decoded
 * UTF-8 (at most raw_len bytes, no terminator added). *decoded_len: decoded byte count;
 * *has_nul: 1 if it decodes to a NUL byte (\u0000). Returns 0, or -1 when no string is there.
 */
int json_string(struct json_cursor *c, char *out, const char **raw, size_t *raw_len,
                size_t *decoded_len, int *has_nul);

/*
 * Read the number at the cursor: *raw and *raw_len: its text. Returns 0, or -1 when no number is there.
 */
int json_number(struct json_cursor *c, const char **raw, size_t *raw_len);

/* The number text raw [n] as an integer in [0, 2^53]: 0 and *v, else -1 (a fraction, an
 * exponent, a minus sign, or larger than 2^53). */
int json_u53(const char *raw, size_t n, uint64_t *v);

/* Skip one whole value at the cursor (any type), iteratively. 0, or -1 on malformed text. */
int json_skip(struct json_cursor *c);

#endif /* AL_IO_JSON_H */
