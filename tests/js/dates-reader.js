// dates-reader.js: a small reader of the dates the generator writes (web/data/dates.js), written
// independently of it, for the tests: a month word (its first three letters) with two numbers
// (day, then year), or three numbers (year first when it has four digits, else month/day/year
// with slashes, day.month.year otherwise); two-digit years by the POSIX pivot.
import assert from 'node:assert/strict';

import { pivotYear } from '../../web/data/dates.js';

const norm = (s) => s.toLowerCase().replace(/\s+/g, ' ').trim();
const MONTH3 = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** An independent reader of what the generator writes: → 'yyyy-mm-dd'. */
export function readDate(src) {
  const s = norm(src);
  const nums = s.match(/\d+/g);
  const month = (s.match(/[a-z]+/g) ?? [])
    .map((w) => MONTH3.indexOf(w.slice(0, 3)))
    .find((i) => i >= 0);
  const year = (t) => (t.length === 4 ? Number(t) : pivotYear(Number(t)));
  let y, m, d;
  if (month !== undefined) {
    assert.equal(nums.length, 2, src);
    [d, m, y] = [Number(nums[0]), month + 1, year(nums[1])];
  } else {
    assert.equal(nums.length, 3, src);
    if (nums[0].length === 4) [y, m, d] = nums.map(Number);
    else if (s.includes('/')) [m, d, y] = [Number(nums[0]), Number(nums[1]), year(nums[2])];
    else [d, m, y] = [Number(nums[0]), Number(nums[1]), year(nums[2])];
  }
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
