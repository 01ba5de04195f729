/**
 * The repository of a SWE-bench instance id: `owner__name-123` → `owner/name` (the dataset's
 * naming, `instance_id = repo.replace('/', '__') + '-' + pull_number`). An id in another form is
 * its own repository.
 * @module
 */

/** `owner/name` of an instance id, or the id less a trailing `-N` when it has no `__`. */
export function repoOfId(id: string): string {
  const base = id.replace(/-\d+$/, '');
  const split = base.indexOf('__');
  return split === -1 ? base : `${base.slice(0, split)}/${base.slice(split + 2)}`;
}
