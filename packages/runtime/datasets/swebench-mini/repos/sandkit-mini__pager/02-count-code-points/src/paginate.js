/** Number of pages needed to show `total` items, `perPage` at a time. */
export function pageCount(total, perPage) {
  if (!Number.isInteger(perPage) || perPage <= 0) {
    throw new RangeError(`perPage must be a positive integer, got ${perPage}`);
  }
  return Math.ceil(total / perPage);
}

/** Items of the 1-based `page`; an empty array past the last page. */
export function paginate(items, page, perPage) {
  const pages = pageCount(items.length, perPage);
  if (page < 1 || page > pages) return [];
  const start = (page - 1) * perPage;
  return items.slice(start, start + perPage);
}
