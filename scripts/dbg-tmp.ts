import { generateBuiltin } from '../src/domain/generate/builtin.js';
const s = generateBuiltin(process.argv[2]!);
console.log(s.title, JSON.stringify(s.signers));
for (const f of s.fields) console.log(`  ${f.type}@${f.signer} ${f.required ? '*' : ' '} ${f.label}${f.options ? ' =' + f.options.join('/') : ''}${f.description ? ' [' + f.description + ']' : ''}`);
