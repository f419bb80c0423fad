// STYLE.md rule 1: libs/rules reads no clock, no randomness, no process state.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const FORBIDDEN = [
  /\bMath\.random\b/,
  /\bDate\.now\b/,
  /\bnew Date\b/,
  /\bprocess\./,
  /\bperformance\.now\b/,
  /\bsetTimeout\b/,
  /\bsetInterval\b/,
  /\brequire\(/,
  /\bcrypto\.getRandomValues\b/,
];

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (path.endsWith('.ts') && !path.endsWith('.spec.ts')) yield path;
  }
}

const problems = [];
for (const file of files('libs/rules/src')) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      for (const re of FORBIDDEN)
        if (re.test(line) && !line.trim().startsWith('//') && !line.trim().startsWith('*'))
          problems.push(`${file}:${i + 1}: ${re.source} is not allowed in libs/rules`);
    });
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('libs/rules: no clock, randomness or process access');
