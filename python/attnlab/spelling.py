"""python/attnlab/spelling.py: the "spelling" normalisation step of word tokenizers, a mirror of
wasm/model/spelling.js (the reference: where they differ, this file is wrong;
tests/js/spelling.test.js runs both on one word list).

    fix = spelling_corrector(['friendly', 'recommend', 'the'])
    fix('reccomend')   # 'recommend' (two edits: the word has 9 letters)
    fix('freindly')    # 'friendly' (one transposition)
    fix('mid')         # None (shorter than 4 letters: left as typed)

A typed word the vocabulary lacks, of letters only and at least MIN_LENGTH long, is read as the
vocabulary word (letters only, at least 3 long; found by deleting at most k letters from both,
SymSpell's symmetric deletes) within the restricted Damerau-Levenshtein distance 1 (2 from LONG_WORD letters); ties: the smaller distance, the longer prefix shared with
the typed word, a longer candidate before one of the same length before a shorter one, the
earlier in the vocabulary. None: no
candidate (the word stays as typed and reads as unk).
Deliberately not here: context, phonetic matching, splitting run-together words.
"""

import unicodedata

MIN_LENGTH = 4
LONG_WORD = 9
CACHE_SIZE = 4096  # answers kept per corrector (spelling.js)


def _letters(word):
    """\\p{L}+: one or more letters."""
    return len(word) > 0 and all(unicodedata.category(c)[0] == "L" for c in word)


def edit_distance(a, b, max_d=float("inf")):
    """Restricted Damerau-Levenshtein distance (optimal string alignment) of a and b, or
    max_d + 1 as soon as it must exceed max_d (spelling.js editDistance)."""
    n, m = len(a), len(b)
    if abs(n - m) > max_d:
        return max_d + 1
    prev2 = None
    prev = list(range(m + 1))
    for i in range(1, n + 1):
        cur = [i]
        row_min = i
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur.append(v)
            row_min = min(row_min, v)
        if row_min > max_d:
            return max_d + 1
        prev2, prev = prev, cur
    return prev[m]


def deletions(word, k):
    """Every string made from word by deleting at most k code points, the word included."""
    out = {word}
    level = [word]
    for _ in range(k):
        nxt = []
        for w in level:
            for i in range(len(w)):
                x = w[:i] + w[i + 1:]
                if x not in out:
                    out.add(x)
                    nxt.append(x)
        level = nxt
    return out


def spelling_corrector(vocab, keep=()):
    """word -> the vocabulary word it is read as, or None (spelling.js spellingCorrector); the
    words of `keep` (real words the vocabulary lacks) stay as typed."""
    known = set(vocab)
    kept = set(keep)
    entries = []
    index = {}
    seen = set()
    for rank, word in enumerate(vocab):
        if word in seen or not _letters(word):
            continue
        seen.add(word)
        if len(word) < 3:
            continue
        entries.append((word, rank))
        for d in deletions(word, 2 if len(word) >= LONG_WORD - 2 else 1):
            index.setdefault(d, []).append(len(entries) - 1)
    cache = {}

    def correct(word):
        if word in known or word in kept:
            return None
        if word in cache:
            return cache[word]
        best, best_key = None, None
        if len(word) >= MIN_LENGTH and _letters(word):
            max_d = 2 if len(word) >= LONG_WORD else 1
            tried = set()
            for d in deletions(word, max_d):
                for i in index.get(d, ()):
                    if i in tried:
                        continue
                    tried.add(i)
                    cand, rank = entries[i]
                    dist = edit_distance(word, cand, max_d)
                    if dist > max_d:
                        continue
                    length = len(cand)
                    longer = 0 if length > len(word) else 1 if length == len(word) else 2
                    prefix = 0
                    while prefix < length and prefix < len(word) and cand[prefix] == word[prefix]:
                        prefix += 1
                    key = (dist, -prefix, longer, rank)
                    if best_key is None or key < best_key:
                        best_key, best = key, cand
        if len(cache) >= CACHE_SIZE:  # typed text has no bound: start over
            cache.clear()
        cache[word] = best
        return best

    return correct
