import { glue } from '../src/domain/generate/segment.js';
import { typeOf, fold } from '../src/domain/generate/lexicon.js';
const g = glue(process.argv[2]!);
console.log(g.replace(/\u00a0/g,"_"), typeOf(fold('Data\u00a0e\u00a0a\u00a0hora da ocorrência')));
