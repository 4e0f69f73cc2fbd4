/** A new role file as a snippet: the required keys, with the name, its invocation and the steps to fill in. */
export const picassoSkeleton = (name: string): string =>
  `name: \${1:${name}}\ninvocation: "@\${1:${name}}"\nmodel: \${2:model}\ntools: [\${3:read_file, grep, glob}]\nmax_steps: \${4:30}\nmax_depth: \${5:0}\ndescription: \${6:what the role does}\n`;
