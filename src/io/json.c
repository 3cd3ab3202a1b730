/*
 * io/json.c: the strict JSON reader behind the safetensors loader (see json.h).
 *
 * json_validate() is one loop over the bytes with three states (expecting a value, a key, or what
 * follows a value) and a 64-bit word as the container stack, so a 100,000-deep "[[[[..." costs
 * neither stack nor heap: it stops at depth JSON_MAX_DEPTH. Grammar: RFC 8259 section 2 to 7;
 * UTF-8: RFC 3629 section 4 (the table of well-formed byte sequences).
 */
#include "io/json.h"

/* Length of the well-formed UTF-8 sequence at s [n], or 0 if it is not one (RFC 3629 §4). */
static size_t utf8_seq(const uint8_t *s, size_t n)
{
    uint8_t c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF; /* range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* no overlongs */
        else if (c == 0xED)
            hi = 0x9F; /* no UTF-16 surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90; /* no overlongs */
        else if (c == 0xF4)
            hi = 0x8F; /* nothing above U+10FFFF */
    } else
        return 0;
    if (n < len) return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if (s[k] < 0x80 || s[k] > 0xBF) return 0;
    return len;
}

int json_utf8_check(const uint8_t *s, size_t n, size_t *bad)
{
    size_t i = 0;
    while (i < n) {
        size_t len = utf8_seq(s + i, n - i);
        if (len == 0) {
            *bad = i;
            return -1;
        }
        i += len;
    }
    return 0;
}

static int is_ws(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int hex4(const uint8_t *s, size_t n, size_t i, unsigned *out)
{
    if (n - i < 4) return -1;
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        int c = s[i + k];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

/* Scan the string whose opening quote is at s[*i]; on success *i is past the closing quote. */
static const char *scan_string(const uint8_t *s, size_t n, size_t *i)
{
    size_t k = *i + 1;
    for (;;) {
        if (k >= n) {
            *i = k;
            return "unterminated string";
        }
        uint8_t c = s[k];
        if (c == '"') break;
        if (c < 0x20) {
            *i = k;
            return "control character in a string (escape it)";
        }
        if (c == '\\') {
            if (k + 1 >= n) {
                *i = k;
                return "unterminated string";
            }
            uint8_t e = s[k + 1];
            if (e == 'u') {
                unsigned u, u2;
                if (hex4(s, n, k + 2, &u)) {
                    *i = k;
                    return "bad \\u escape (needs 4 hex digits)";
                }
                k += 6;
                if (u >= 0xDC00 && u <= 0xDFFF) {
                    *i = k - 6;
                    return "lone low surrogate \\u escape";
                }
                if (u >= 0xD800 && u <= 0xDBFF) {
                    if (n - k < 6 || s[k] != '\\' || s[k + 1] != 'u' || hex4(s, n, k + 2, &u2) ||
                        u2 < 0xDC00 || u2 > 0xDFFF) {
                        *i = k - 6;
                        return "high surrogate \\u escape not followed by a low surrogate";
                    }
                    k += 6;
                }
            } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                       e == 'r' || e == 't') {
                k += 2;
            } else {
                *i = k;
                return "unknown escape in a string";
            }
        } else if (c >= 0x80) {
            size_t len = utf8_seq(s + k, n - k);
            if (len == 0) {
                *i = k;
                return "invalid UTF-8 in a string";
            }
            k += len;
        } else {
            k++;
        }
    }
    *i = k + 1;
    return NULL;
}

/* Scan an RFC 8259 number at s[*i]. */
static const char *scan_number(const uint8_t *s, size_t n, size_t *i)
{
    size_t k = *i;
    if (k < n && s[k] == '-') k++;
    if (k >= n || !is_digit(s[k])) {
        *i = k;
        return "malformed number";
    }
    if (s[k] == '0')
        k++;
    else
        while (k < n && is_digit(s[k])) k++;
    if (k < n && s[k] == '.') {
        k++;
        if (k >= n || !is_digit(s[k])) {
            *i = k;
            return "malformed number (digits must follow '.')";
        }
        while (k < n && is_digit(s[k])) k++;
    }
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        k++;
        if (k < n && (s[k] == '+' || s[k] == '-')) k++;
        if (k >= n || !is_digit(s[k])) {
            *i = k;
            return "malformed number (bad exponent)";
        }
        while (k < n && is_digit(s[k])) k++;
    }
    *i = k;
    return NULL;
}

static int scan_literal(const uint8_t *s, size_t n, size_t *i, const char *lit)
{
    size_t k = *i;
    for (; *lit; lit++, k++)
        if (k >= n || s[k] != (uint8_t)*lit) return -1;
    *i = k;
    return 0;
}

int json_validate(const char *text, size_t n, struct json_error *e)
{
    const uint8_t *s = (const uint8_t *)text;
    enum { VALUE, KEY, AFTER } state = VALUE;
    uint64_t is_object = 0; /* bit d set: the container at depth d is an object */
    int depth = 0;
    size_t i = 0;
    const char *err = NULL;

    for (;;) {
        while (i < n && is_ws(s[i])) i++;
        if (state == VALUE) {
            if (i >= n) {
                err = depth ? "unexpected end of text (truncated?)" : "empty document";
                break;
            }
            uint8_t c = s[i];
            if (c == '{' || c == '[') {
                if (depth >= JSON_MAX_DEPTH) {
                    err = "nesting deeper than 64 levels";
                    break;
                }
                if (c == '{')
                    is_object |= (uint64_t)1 << depth;
                else
                    is_object &= ~((uint64_t)1 << depth);
                depth++;
                i++;
                while (i < n && is_ws(s[i])) i++;
                if (i < n && s[i] == (c == '{' ? '}' : ']')) { /* empty container */
                    i++;
                    depth--;
                    state = AFTER;
                } else {
                    state = c == '{' ? KEY : VALUE;
                }
                continue;
            }
            if (c == '"')
                err = scan_string(s, n, &i);
            else if (c == '-' || is_digit(c))
                err = scan_number(s, n, &i);
            else if (c == 't')
                err = scan_literal(s, n, &i, "true") ? "bad literal (expected true)" : NULL;
            else if (c == 'f')
                err = scan_literal(s, n, &i, "false") ? "bad literal (expected false)" : NULL;
            else if (c == 'n')
                err = scan_literal(s, n, &i, "null") ? "bad literal (expected null)" : NULL;
            else
                err = "unexpected character where a value was expected";
            if (err) break;
            state = AFTER;
        } else if (state == KEY) {
            if (i >= n) {
                err = "unexpected end of text (truncated?)";
                break;
            }
            if (s[i] != '"') {
                err = "expected a string key";
                break;
            }
            err = scan_string(s, n, &i);
            if (err) break;
            while (i < n && is_ws(s[i])) i++;
            if (i >= n || s[i] != ':') {
                err = i >= n ? "unexpected end of text (truncated?)" : "expected ':' after a key";
                break;
            }
            i++;
            state = VALUE;
        } else { /* AFTER a value */
            if (depth == 0) {
                if (i < n) err = "trailing characters after the JSON value";
                break;
            }
            int obj = (int)((is_object >> (depth - 1)) & 1);
            if (i >= n) {
                err = "unexpected end of text (truncated?)";
                break;
            }
            if (s[i] == ',') {
                i++;
                state = obj ? KEY : VALUE;
            } else if (s[i] == (obj ? '}' : ']')) {
                i++;
                depth--;
            } else {
                err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
                break;
            }
        }
    }
    if (err) {
        e->pos = i;
        e->what = err;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ cursor */

void json_ws(struct json_cursor *c)
{
    while (c->i < c->n && is_ws((uint8_t)c->s[c->i])) c->i++;
}

int json_peek(const struct json_cursor *c) { return c->i < c->n ? (uint8_t)c->s[c->i] : 0; }

int json_eat(struct json_cursor *c, int ch)
{
    json_ws(c);
    if (json_peek(c) != ch) return -1;
    c->i++;
    return 0;
}

const char *json_kind(const struct json_cursor *c)
{
    switch (json_peek(c)) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    case 0: return "nothing";
    default: return "a number";
    }
}

/* Append code point u as UTF-8 at out + *k (when out is non-NULL); always advance *k. */
static void put_utf8(char *out, size_t *k, unsigned u)
{
    unsigned char b[4];
    size_t len;
    if (u < 0x80) {
        b[0] = (unsigned char)u;
        len = 1;
    } else if (u < 0x800) {
        b[0] = (unsigned char)(0xC0 | (u >> 6));
        b[1] = (unsigned char)(0x80 | (u & 0x3F));
        len = 2;
    } else if (u < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (u >> 12));
        b[1] = (unsigned char)(0x80 | ((u >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (u & 0x3F));
        len = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | (u >> 18));
        b[1] = (unsigned char)(0x80 | ((u >> 12) & 0x3F));
        b[2] = (unsigned char)(0x80 | ((u >> 6) & 0x3F));
        b[3] = (unsigned char)(0x80 | (u & 0x3F));
        len = 4;
    }
    if (out)
        for (size_t j = 0; j < len; j++) out[*k + j] = (char)b[j];
    *k += len;
}

int json_string(struct json_cursor *c, char *out, const char **raw, size_t *raw_len,
                size_t *decoded_len, int *has_nul)
{
    json_ws(c);
    const uint8_t *s = (const uint8_t *)c->s;
    size_t n = c->n, i = c->i;
    if (i >= n || s[i] != '"') return -1;
    size_t start = ++i, k = 0;
    int nul = 0;
    /* Every escape decodes to fewer bytes than it occupies, so k <= i - start throughout. */
    for (;;) {
        if (i >= n) return -1;
        uint8_t ch = s[i];
        if (ch == '"') break;
        if (ch == '\\') {
            if (i + 1 >= n) return -1;
            uint8_t e = s[i + 1];
            unsigned u;
            if (e == 'u') {
                if (hex4(s, n, i + 2, &u)) return -1;
                i += 6;
                if (u >= 0xD800 && u <= 0xDBFF) {
                    unsigned lo;
                    if (n - i < 6 || s[i] != '\\' || s[i + 1] != 'u' || hex4(s, n, i + 2, &lo) ||
                        lo < 0xDC00 || lo > 0xDFFF)
                        return -1;
                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                } else if (u >= 0xDC00 && u <= 0xDFFF) {
                    return -1;
                }
                if (u == 0) nul = 1;
                put_utf8(out, &k, u);
                continue;
            }
            switch (e) {
            case '"': u = '"'; break;
            case '\\': u = '\\'; break;
            case '/': u = '/'; break;
            case 'b': u = '\b'; break;
            case 'f': u = '\f'; break;
            case 'n': u = '\n'; break;
            case 'r': u = '\r'; break;
            case 't': u = '\t'; break;
            default: return -1;
            }
            if (out) out[k] = (char)u;
            k++;
            i += 2;
        } else {
            if (out) out[k] = (char)ch;
            k++;
            i++;
        }
    }
    if (raw) *raw = c->s + start;
    if (raw_len) *raw_len = i - start;
    if (decoded_len) *decoded_len = k;
    if (has_nul) *has_nul = nul;
    c->i = i + 1;
    return 0;
}

int json_number(struct json_cursor *c, const char **raw, size_t *raw_len)
{
    json_ws(c);
    size_t start = c->i, i = c->i;
    if (scan_number((const uint8_t *)c->s, c->n, &i)) return -1;
    *raw = c->s + start;
    *raw_len = i - start;
    c->i = i;
    return 0;
}

int json_u53(const char *raw, size_t n, uint64_t *v)
{
    if (n == 0 || n > 16) return -1; /* 2^53 = 9007199254740992 has 16 digits */
    uint64_t x = 0;
    for (size_t k = 0; k < n; k++) {
        if (!is_digit((uint8_t)raw[k])) return -1; /* '-', '.', 'e' */
        x = x * 10 + (uint64_t)(raw[k] - '0');
    }
    if (x > ((uint64_t)1 << 53)) return -1;
    *v = x;
    return 0;
}

int json_skip(struct json_cursor *c)
{
    int depth = 0;
    do {
        json_ws(c);
        int ch = json_peek(c);
        if (ch == '"') {
            if (json_string(c, NULL, NULL, NULL, NULL, NULL)) return -1;
        } else if (ch == '{' || ch == '[') {
            depth++;
            c->i++;
        } else if (ch == '}' || ch == ']') {
            if (depth == 0) return -1;
            depth--;
            c->i++;
        } else if (ch == ',' || ch == ':') {
            if (depth == 0) return -1;
            c->i++;
        } else if (ch == 't' || ch == 'f' || ch == 'n') {
            size_t i = c->i;
            if (scan_literal((const uint8_t *)c->s, c->n, &i,
                             ch == 't'   ? "true"
                             : ch == 'f' ? "false"
                                         : "null"))
                return -1;
            c->i = i;
        } else {
            const char *raw;
            size_t len;
            if (json_number(c, &raw, &len)) return -1;
        }
    } while (depth > 0);
    return 0;
}
