/**
 * Builds small git test patches for the spec-table tests: each path becomes one modified file,
 * or a new one when written `new:<path>`.
 */
export function testPatchTouching(paths: readonly string[]): string {
  return paths
    .map((entry) => {
      const isNew = entry.startsWith('new:');
      const path = isNew ? entry.slice(4) : entry;
      return isNew
        ? `diff --git a/${path} b/${path}\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+added\n`
        : `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-old\n+new\n`;
    })
    .join('');
}
