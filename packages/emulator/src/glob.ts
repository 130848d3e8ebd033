/**
 * Path patterns of the test controls (faults, the call log), matched by picomatch: `*` matches any
 * run of characters, `/` included (bash mode: a lone star is a globstar), and `?` any one but `/`.
 * Braces, brackets, extglobs and a leading `!` mean themselves, as in a path.
 */
import picomatch from 'picomatch';

const OPTIONS: picomatch.PicomatchOptions = {
  bash: true,
  dot: true,
  nobrace: true,
  nobracket: true,
  noextglob: true,
  nonegate: true,
};

/** A predicate over request paths for `glob`. */
export function pathMatcher(glob: string): (path: string) => boolean {
  const isMatch = picomatch(glob, OPTIONS);
  return (path) => isMatch(path);
}
