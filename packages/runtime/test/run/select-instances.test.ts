import { describe, expect, it } from 'vitest';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';
import { parseSlice, selectInstances } from '../../src/run/select-instances.js';

const ids = ['c__1', 'a__1', 'b__2', 'a__2', 'b__1', 'c__2'];
const instances = ids.map((instance_id) => ({ instance_id }) as SweBenchInstance);
const pick = (selection: Partial<Parameters<typeof selectInstances>[1]>) =>
  selectInstances(instances, {
    instanceIds: null,
    filter: null,
    slice: null,
    shuffle: false,
    seed: 42,
    ...selection,
  }).map((i) => i.instance_id);

describe('selectInstances', () => {
  it('keeps the dataset order without shuffle', () => {
    expect(pick({})).toEqual(ids);
  });

  it('matches --filter from the start of the id, as re.match does', () => {
    expect(pick({ filter: 'b' })).toEqual(['b__2', 'b__1']);
    expect(pick({ filter: '1' })).toEqual([]);
    expect(pick({ filter: '.*__1' })).toEqual(['c__1', 'a__1', 'b__1']);
  });

  it('slices with Python meaning: STOP exclusive, empty and negative ends', () => {
    expect(pick({ slice: '1:3' })).toEqual(['a__1', 'b__2']);
    expect(pick({ slice: ':2' })).toEqual(['c__1', 'a__1']);
    expect(pick({ slice: '-2:' })).toEqual(['b__1', 'c__2']);
  });

  it('shuffles by seed, the same order for the same seed whatever the file order, before filter and slice', () => {
    const once = pick({ shuffle: true });
    expect(once).not.toEqual(ids);
    expect([...once].sort()).toEqual([...ids].sort());
    const reversed = selectInstances([...instances].reverse(), {
      instanceIds: null,
      filter: null,
      slice: null,
      shuffle: true,
      seed: 42,
    }).map((i) => i.instance_id);
    expect(reversed).toEqual(once);
    expect(pick({ shuffle: true, seed: 7 })).not.toEqual(once);
    expect(pick({ shuffle: true, slice: ':2' })).toEqual(once.slice(0, 2));
    expect(pick({ shuffle: true, filter: 'a' })).toEqual(once.filter((id) => id.startsWith('a')));
  });

  it('refuses an id not in the dataset, a bad regular expression and a bad slice', () => {
    expect(() => pick({ instanceIds: ['z__9'] })).toThrow(/--instance-ids not in the dataset: z__9/);
    expect(() => pick({ filter: '(' })).toThrow(/--filter \( is not a regular expression/);
    expect(() => parseSlice('1-3')).toThrow(/--slice must be START:STOP/);
  });
});
