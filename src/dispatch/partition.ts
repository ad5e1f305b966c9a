// Batch partitioning: consecutive concurrency-safe calls form one parallel group; an unsafe call is a group
// of its own. Groups run in order, so an unsafe call never overlaps anything.

export function partition<T>(items: readonly T[], isSafe: (item: T) => boolean): T[][] {
  const groups: T[][] = [];
  let parallel: T[] | undefined;
  for (const item of items) {
    if (isSafe(item)) {
      if (!parallel) {
        parallel = [];
        groups.push(parallel);
      }
      parallel.push(item);
    } else {
      parallel = undefined;
      groups.push([item]);
    }
  }
  return groups;
}
