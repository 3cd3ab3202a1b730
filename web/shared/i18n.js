// i18n.js: every interface string of the model views, in English and Chinese.
//
//   import { t, resolveLang } from './i18n.js';
//   t('zh', 'view.alignment')                      // '对齐'
//   t('en', 'status.ran', { ms: '1.2' })           // placeholders are {name}
//
// Holds: the string tables and a lookup with {placeholder} substitution. Deliberately holds no
// DOM code: callers put the result in textContent (never innerHTML), so a translated string or a
// substituted value can never become markup. A key missing from a language falls back to English;
// a key missing from English is returned as is (visible, so it gets fixed).

export const LANGUAGES = Object.freeze(['en', 'zh']);
export const DEFAULT_LANG = 'en';

const EN = {
  'lang.name': 'English',
  'lang.label': 'Language',
  'view.label': 'View',
  'view.alignment': 'Alignment',
  'view.time': 'Over time',
  'view.compare': 'Compare',
  'view.playground': 'SDPA playground',
  'view.train': 'Train',
  'view.lab': 'Lab',
  'view.heads': 'Heads',
  'view.pooling': 'Pooling',
  'family.seq2seq': 'sequence-to-sequence',
  'family.transformer': 'transformer',
  'family.classifier': 'classifier',
  'model.wrongView':
    'Model {name} is not a {family} model, which this view shows; showing {fallback} instead.',
  'model.wrongArch':
    'This view shows {family} models, and {name} is a “{arch}” model: pick another model.',
  'page.headsTitle': 'A transformer’s attention, every layer and head',
  'page.headsLede':
    'Type an input: the model runs in your browser, and each small map shows one head of one layer (query token as the row, key token as the column). Choose a map, with a click or Enter, to enlarge it and read it cell by cell.',
  'page.poolingTitle': 'Which words a classifier looked at',
  'page.poolingLede':
    'Type a sentence: the classifier runs in your browser, and each word is shaded by the weight its attention pooling gave it before predicting the label.',
  'heads.variant.encoder': 'Encoder (every position sees every position).',
  'heads.variant.decoder':
    'Decoder-only language model (causal: position t sees positions s ≤ t; the model continues the input).',
  'heads.variant.encoder-decoder':
    'Encoder-decoder (encoder self-attention, causal decoder self-attention and cross-attention from the output to the input).',
  'heads.pos.learned':
    'Absolute positions: a learned vector per position (at most {max}), added to each token’s embedding.',
  'heads.pos.sinusoidal':
    'Absolute positions: fixed sinusoids (Vaswani et al. 2017, §3.5) added to each token’s embedding; no weights.',
  'heads.pos.relative':
    'Relative positions (Shaw et al. 2018): attention sees the offset j − i between key and query, clipped to ±{k}, through learned vectors; nothing is added to the embeddings.',
  'heads.pos.unknown': 'Positions: “{value}”.',
  'heads.continuation': 'Continuation',
  'heads.labels': 'Labels',
  'heads.kind': 'Attention',
  'heads.kind.encoder': 'encoder self-attention',
  'heads.kind.decoder': 'decoder self-attention',
  'heads.kind.cross': 'cross-attention (output × input)',
  'heads.grid': '{layers} × {heads}',
  'heads.gridLabel': 'Attention maps, one per layer (row) and head (column)',
  'heads.gridKeys': 'Arrow keys move between maps; Enter enlarges one.',
  'heads.layer': 'Layer {layer}',
  'heads.head': 'Head {head}',
  'heads.thumb':
    'Layer {layer}, head {head}: {rows} × {cols} weights; strongest {value} (query “{row}” to key “{col}”). Enlarge.',
  'heads.thumbShort': 'Layer {layer}, head {head}',
  'heads.legend': 'one scale for every map',
  'heads.selected': 'Layer {layer}, head {head}: {kind}',
  'heads.mapLabel': 'Layer {layer} head {head} {kind}: query (row) × key (column)',
  'heads.downloadAll': 'Download every map (JSON)',
  'heads.relTitle': 'Clipped relative distances clip(j − i, −{k}, {k})',
  'heads.relNote':
    'Query i (row) sees key j (column) through the learned vectors number clip(j − i, −{k}, {k}) + {k}: {n} vectors per layer, shared by every position. Blue: the key is before the query; red: after it.',
  'heads.relCross': 'Cross-attention uses no relative positions: only self-attention does.',
  'heads.distLabel': 'Clipped relative distance clip(j − i, −{k}, {k}): query (row) × key (column)',
  'status.heads': '{layers} × {heads} of {rows} × {cols} weights in {ms} ms.',
  'pooling.about.attention':
    'Attention pooling (Zhou et al. 2016): α = softmax(w · tanh(H)) over the words, then the classifier reads Σ αⱼ hⱼ.',
  'pooling.about.han':
    'Hierarchical attention (Yang et al. 2016): word weights α inside each sentence (each sentence’s sum is 1), then sentence weights β over the sentences (“.” ends a sentence).',
  'pooling.about.structured':
    'Structured self-attention (Lin et al. 2017): {r} hops, each its own softmax over the words (the rows of A); the classifier reads all of them.',
  'pooling.predicted': 'Predicted',
  'pooling.probs': 'Class probabilities',
  'pooling.words.attention': 'Words shaded by their weight α',
  'pooling.words.han': 'Sentences (marked with β) and their words (shaded by α)',
  'pooling.words.structured': 'One row per hop, words shaded by A',
  'pooling.legend': 'weight',
  'pooling.legendHan': 'word and sentence weights share this scale',
  'pooling.wordsLabel': 'Input words shaded by attention weight: {rows} rows, {words} words',
  'pooling.keys':
    'Left and right arrow keys move between words, up and down between rows; the weight is read out.',
  'pooling.sentence': 'S{n}',
  'pooling.sentenceWeight': 'Sentence {n}, weight β = {value}',
  'pooling.hop': 'hop {n}',
  'pooling.asText': 'The weights as text',
  'pooling.map.attention': 'Word weights α (1 × words)',
  'pooling.map.han': 'Word weights α, each sentence summing to 1 (1 × words)',
  'pooling.map.structured': 'Structured attention A (hops × words)',
  'pooling.map.sentences': 'Sentence weights β (1 × sentences)',
  'pooling.penalty':
    'Penalty ‖AAᵀ − I‖²_F = {value} (r = {r}; 0 when every hop puts all its weight on a different word).',
  'pooling.downloadAll': 'Download every number (JSON)',
  'pooling.say': 'Word {index} “{word}”: {value}',
  'pooling.sayHan': 'Sentence {n} (β {sentence}), word {index} “{word}”: {value}',
  'pooling.sayHop': 'Hop {n}, word {index} “{word}”: {value}',
  'status.pooling': '{words}, {rows} in {ms} ms.',
  'train.title': 'Train the dates model in your browser',
  'train.lede':
    'A bidirectional LSTM encoder and an LSTM decoder with additive (Bahdanau) attention learn to turn human dates into ISO dates, from random weights, in a background worker. Watch the loss fall and the alignment form.',
  'train.lr': 'Learning rate (Adam)',
  'train.batch': 'Batch size',
  'train.logScale': 'Log scale for the loss',
  'train.start': 'Start',
  'train.resume': 'Resume',
  'train.pause': 'Pause',
  'train.reset': 'Reset',
  'train.invalidLr': 'Enter a number from {min} to {max}, e.g. 0.003.',
  'train.invalidBatch': 'Enter a whole number from {min} to {max}.',
  'train.invalid': 'Not a valid value.',
  'train.step': 'Step',
  'train.loss': 'Loss (mean of the last {n} steps)',
  'train.elapsed': 'Training time',
  'train.rate': '{rate} steps/s',
  'train.exact': 'Held-out exact match ({count} dates never trained on)',
  'train.output': 'Output for “{example}”',
  'train.expected': 'expected {target}',
  'train.chart': 'Loss per step and held-out exact match',
  'train.chartAlt': 'Loss chart: step {step}, loss {loss}, held-out exact match {exact}.',
  'train.chartEmpty': 'Press Start to train.',
  'train.axisStep': 'step',
  'train.axisLoss': 'loss',
  'train.axisExact': 'held-out exact match',
  'train.heatmap':
    'Alignment of “{example}” now: output character (row) × input character (column)',
  'train.loading': 'Starting the training worker…',
  'train.ready': 'Ready: random weights (seed 1). Press Start.',
  'train.running': 'Training in a background worker; the page stays responsive.',
  'train.paused': 'Paused at step {step}.',
  'train.reached':
    'Reached {pct} held-out exact match after {seconds} s of training (step {step}).',
  'train.error': 'Training stopped: {message}',
  'train.noWorker': 'This browser cannot run module workers, so training is not available here.',
  // The guided lesson (web/views/lesson-view.js): the page's nav and title here; the steps' texts
  // are in web/shared/lesson-text.js, which only the lesson loads (addStrings).
  'view.lesson': 'Lesson',
  'lesson.title': 'A guided lesson: attention, step by step',
  'lesson.lede':
    'Ten steps along the papers, from an encoder–decoder that forgets to the transformer’s heads, each with a live model to try. The ← and → keys move between steps.',
  'lesson.failed': 'Could not load the lesson: {message}',
  'model.label': 'Model',
  'model.untrained': 'untrained test model',
  'model.loading': 'Loading model {name}…',
  // A file the page could not fetch (fetch-problem.js; web/load-guard.js keeps a copy of the
  // strings the page code needs, load.code … load.broken and status.notRunning, as it runs where no
  // module can: tests/js/web-load-guard.test.js keeps the copies equal).
  // A message is what failed (load.code, load.wasm, load.model), then why, then the fix.
  'load.code': 'The page code could not be loaded:',
  'load.wasm': 'The attnlab WebAssembly module could not be loaded:',
  'load.model': 'Model {name} is not available:',
  'load.file':
    '{url} cannot be fetched by a page opened as a file (file://). Serve it over http instead: run node scripts/serve.mjs in the attnlab folder, then open the address it prints.',
  'load.cors':
    '{url} was refused by the browser: it is on (or redirects to) another origin than this page, or this page is in a sandboxed iframe, and the server did not send Access-Control-Allow-Origin. The server must send that header for the .js, .wasm and model files (node scripts/serve.mjs does; on a static host, turn on CORS).',
  'load.unreachable':
    '{url} could not be fetched: the server did not answer. Check the address, and that the server is running.',
  'load.http': '{url} answered HTTP {status}.',
  'load.missing.code':
    'The file is missing: copy web/ and wasm/ side by side to the server, or check the path.',
  'load.missing.wasm':
    'The file is missing: copy wasm/ with its .wasm files beside web/ (make wasm builds them), or check the path.',
  'load.missing.model':
    'The file is missing: run make models, or check the path; or pick another model.',
  'load.http.other': 'Check the path, and the server’s log.',
  'load.broken':
    '{url}, or a module it imports, could not be run: the browser’s console names the file and the problem.',
  'status.notRunning': 'Not running.',
  'model.failed': 'Model {name} could not be loaded: {message}',
  // Offline (web/sw.js, shared/offline.js): the picker marks the models not saved on this device.
  'model.needsNetwork': 'needs the network',
  'model.offline':
    'Model {name} needs the network: it has not been saved on this device, and the browser is offline. Reconnect to load it, or pick a model that is not marked “needs the network”.',
  'status.offline':
    'Offline: the models seen on an earlier visit open from this device; those marked “needs the network” do not.',
  'view.offline':
    'The {view} view needs the network: its code has not been saved on this device, and the browser is offline.',
  'model.refused':
    'The model "{value}" was refused: only the listed models or same-origin .safetensors paths can be loaded.',
  'input.label': 'Input',
  'input.placeholder': 'Type here',
  'input.hint': 'Up to {max} characters. Characters the model does not know become {unk}.',
  'input.hintWords':
    'Up to {max} characters, split into words at spaces. Words the model does not know become {unk}; “.” ends a sentence.',
  'input.empty': 'Type something: the model needs at least one input token.',
  'output.label': 'Output',
  'output.none': '(empty)',
  'heatmap.alignment': 'Alignment: output character (row) × input character (column)',
  'heatmap.time': 'Alignment so far, one row per decoded token',
  'heatmap.diff': 'Difference {a} − {b}',
  'status.wasm': 'Loading the WebAssembly module…',
  'status.simd':
    'Ready: the models run here, in your browser, with its fast vector instructions (WebAssembly SIMD128).',
  'status.scalar':
    'Ready: the models run here, in your browser, more slowly: it lacks fast vector instructions (WebAssembly SIMD128).',
  'status.ran': '{rows} output × {cols} input tokens in {ms} ms.',
  'error.wasm': 'Could not start the attnlab WebAssembly module: {message}',
  'error.run': 'The model could not run this input: {message}',
  'explain.prompt': 'Hover over or focus a cell (arrow keys) to see how its weight was computed.',
  'explain.cell': 'Output {row} “{rowLabel}” attending to input {col} “{colLabel}”',
  'explain.mechanism': 'Mechanism: {name}',
  'explain.score': 'Score eₜⱼ − maxₖ eₜₖ',
  'explain.exp': 'exp(eₜⱼ − max)',
  'explain.sum': 'Σₖ exp(eₜₖ − max)',
  'explain.softmax': 'softmax',
  'explain.gauss': 'Gaussian exp(−(j − pₜ)² / 2σ²)',
  'explain.weight': 'Weight αₜⱼ',
  'explain.rank': 'Rank in row',
  'explain.rowSum': 'Row sum Σⱼ αₜⱼ',
  'explain.position': 'Predicted position pₜ',
  'explain.window': 'Window pₜ ± D',
  'explain.outside': 'outside the window: the weight is 0 by construction',
  'explain.underflow': '−∞ (the weight underflowed to 0)',
  'explain.none':
    'This model has no attention: every weight is 0 and the decoder sees only its own state.',
  'explain.honest':
    "attnlab returns the weights, not the scores. Softmax ignores a constant added to every score, so the score is shown relative to the row's largest: eₜⱼ − maxₖ eₜₖ = ln αₜⱼ − ln maxₖ αₜₖ (exact up to float32 rounding). The raw scores would need the decoder state, which the API does not expose.",
  'explain.honestLocal':
    'For local attention the softmax is taken inside the window and then multiplied by the Gaussian, so softmax = αₜⱼ / Gaussian and the score is recovered from that.',
  'time.play': 'Play',
  'time.pause': 'Pause',
  'time.step': 'Step',
  'time.reset': 'Reset',
  'time.progress': 'Step {step}: emitted “{token}”.',
  'time.done': 'Done after {steps}.',
  'time.ready': 'Press Play or Step to decode one token at a time.',
  'time.window': 'Outlined: the predicted window pₜ ± D = {p} ± {d}.',
  'compare.intro':
    'The same input through every model. The difference map shows A − B (red: A attends more, blue: B attends more).',
  'compare.a': 'Model A',
  'compare.b': 'Model B',
  'compare.forced': 'B is teacher-forced on A’s output, so both rows mean the same output token.',
  'compare.prefix':
    'The two models have different vocabularies: only the first {rows} output steps are compared.',
  'compare.skipped': 'Not shown (unavailable): {names}.',
  'link.label': 'Link to this view',
  'link.embed': 'Embed this view',
  // Issue 18, every view state (i18-state branch): counts with plural forms (plural(): '#one',
  // '#other', Intl.PluralRules), the input's limits, the blank states, the no-attention panel, the
  // over-time intro, copying the link, the Train tab's badge and its loss spikes.
  'count.words#one': '{n} word',
  'count.words#other': '{n} words',
  'count.rows#one': '{n} row of weights',
  'count.rows#other': '{n} rows of weights',
  'count.layers#one': '{n} layer',
  'count.layers#other': '{n} layers',
  'count.heads#one': '{n} head',
  'count.heads#other': '{n} heads',
  'count.steps#one': '{n} step',
  'count.steps#other': '{n} steps',
  'count.tokens#one': '{n} token',
  'count.tokens#other': '{n} tokens',
  'unit.char': 'characters',
  'unit.word': 'words',
  'input.limit': '{name} reads at most {max} {unit}: it learned one position for each.',
  'input.tooLong':
    'Too long for {name}: it reads at most {max} {unit} (one learned position each), and this input has {n}. Shorten it.',
  'status.blank': 'Nothing to show: {reason}',
  'status.notRun': 'not run.',
  'attention.none':
    'No attention in this model: its decoder sees the input only through the encoder’s last state, so there are no weights to draw. Its output is shown above.',
  'time.intro':
    'The decoder writes one token per step; each step adds a row: how much that token attended to each input token.',
  'time.introLocal':
    'This local-p model also predicts a window pₜ ± D on the input at each step (Luong et al. 2015, eq. 9); the newest row’s window is outlined.',
  'time.whole':
    'The whole output, decoded in {steps}. Press Play to watch it again one token at a time, or Step from the start after Reset.',
  'index.note': 'In links and attributes: layer={layer} head={head} (counted from 0).',
  'index.step': 'In links and attributes: step={step} (counted from 0).',
  'link.copy': 'Copy link',
  'link.copied': 'Link copied to the clipboard.',
  'link.copyManual':
    'Copying was refused by the browser: select the link below and copy it yourself.',
  'train.badge': 'running',
  'train.badgeLabel': 'Training is running in the background',
  'page.labTitle': 'The attention lab: design, train and compare two models',
  'page.labLede':
    'Pick a task, build model A and model B, and train both at once in background workers on the same data: watch their loss, held-out accuracy, accuracy by input length and attention side by side.',
  'page.labBadge': 'The lab is training in the background',
  'page.labFailed': 'The lab could not be loaded: {message}',
  'train.background':
    'Training keeps running while you look at other views; the Train tab shows a dot meanwhile. Pause it here to stop it.',
  'train.spikes':
    'Why the loss jumps now and then: each point is the mean over {steps} random batches, and Adam’s step does not shrink with the gradient, so at this learning rate an occasional step overshoots and the loss jumps. Gradients are already clipped to a global norm of 1, which bounds how far one step can go; the loss comes back down within a few points. A smaller learning rate gives fewer, smaller jumps, and slower training.',
  'url.refused': 'Ignored invalid parameters: {list}',
  'url.inputCut':
    'The link’s input has {n} characters; the box takes {max}, so only the first {max} are used.',
  'legend.diverging': 'red: A higher · white: equal · blue: B higher',
  'export.group': 'Export',
  'heatmap.download': 'Download as {kind}',
  'heatmap.noData': '{label}: no data.',
  'heatmap.summary': '{label}: {rows} rows by {cols} columns, colour scale from {min} to {max}.',
  'heatmap.keys':
    'Arrow keys move between cells; Home and End go to the ends of a row, Page Up and Page Down move 10 rows.',
  'heatmap.downloads': 'The values are available from the CSV and JSON downloads.',
  'page.tagline':
    'Attention kernels in C, compiled to WebAssembly SIMD128, with the weights you can look at.',
  'page.modelsLedeWords':
    'Type an English sentence: the model translates it in your browser on every keystroke, and the heatmap shows how much each French output word (row) attended to each English input word (column).',
  'page.modelsTitle': 'A sequence-to-sequence model’s attention, live',
  'page.modelsLede':
    'Type an input: the model runs in your browser on every keystroke, and the heatmap shows how much each output character (row) attended to each input character (column).',
  'page.sdpaTitle': 'Scaled dot-product attention playground',
  // The page's title, header and the SDPA playground (index.html #sdpa-view, main.js), and the
  // strings of the model cards and the heatmap element that were English on every page (issue 18).
  'page.title': 'attnlab: attention kernels in WebAssembly',
  'page.embedTitle': 'attnlab: live attention',
  'status.loadingLabel': 'Loading',
  'sdpa.lede':
    'Random queries Q [n × d], keys K [m × d] and values V [m × d] from a seeded generator; the heatmap shows softmax(Q Kᵀ · scale), the weight each query (row) gives each key (column).',
  'sdpa.queries': 'Queries',
  'sdpa.keys': 'Keys',
  'sdpa.headSize': 'Head size',
  'sdpa.seed': 'Seed',
  'sdpa.reseed': 'New seed',
  'sdpa.causal': 'Causal mask (query i sees keys j ≤ i)',
  'sdpa.scale': 'Scale (inverse temperature)',
  'sdpa.scaleAuto': 'Use 1/√d',
  'sdpa.heatmap': 'Attention weights (query × key)',
  'sdpa.readoutPrompt':
    'Click a cell, or focus the heatmap and use the arrow keys, to read a weight.',
  'sdpa.readout': 'Query {row} gives key {col} the weight {value}.',
  'sdpa.info': '{n} × {m} weights, d = {d}, scale {scale}; computed in {ms} ms.',
  'sdpa.infoCausal': '{n} × {m} weights, d = {d}, scale {scale}, causal; computed in {ms} ms.',
  'sdpa.error': 'attnlab could not compute this view ({code}): {message}',
  'sdpa.shapeError': 'attnlab returned weights of shape [{shape}], expected [{n}, {m}].',
  'train.loadFailed': 'Could not load the Train view: {message}',
  'heatmap.defaultLabel': 'Heatmap',
  'heatmap.size': '{label}, {rows} by {cols}',
  'train.axisLossLog': 'loss (log)',
  // what the cards' data generator and held-out set are, by task, shown above the card's own
  // (English, code-like) text on a page in another language (model-card.js)
  'card.about.dates.data': 'random dates written in many human formats',
  'card.about.dates.heldout':
    'dates from a held-out seed, in two sets: the named formats and their variations',
  'card.about.translation.data':
    'English sentences of a small grammar, with their French translation and gold word alignment',
  'card.about.translation.heldout':
    'sentences from a held-out seed, and a set of every sentence length',
  'card.about.reviews.data':
    'reviews written from templates and sentiment lexicons, as typed (capitals, contractions, punctuation)',
  'card.about.reviews.heldout': 'reviews from a held-out seed',
  'card.about.agreement.data':
    'the Brown corpus, and the agreement grammar widened to its vocabulary',
  'card.about.agreement.heldout':
    'perplexity: every held-out Brown sentence; agreement: the subject–verb pairs of held-out Brown sentences (as Linzen et al. 2016), hand-written pairs never trained on, the page’s grammar and a deeper one',
  'card.about.reverse.data': 'random strings of the symbols a–t',
  'card.about.reverse.heldout': 'held-out random strings, the same number of every length',
  'card.about.induction.data': 'a random sequence A of distinct letters, then A again',
  'card.about.induction.heldout':
    'sequences from a held-out seed; the induction-head scores on some of them',
  'train.seconds': '{s} s',
  'card.taskText.dates':
    'dates: a date in one of many human formats → ISO 8601 (year-month-day), character by character',
  'card.taskText.translation':
    'translation: English → French, word by word, with the gold word alignment',
  'card.taskText.reviews':
    'sentiment of a review as typed (movies, books, restaurants, hotels, products; 1–4 sentences) → negative or positive',
  'card.taskText.agreement':
    'language model of English: the next word of a sentence (Brown corpus); the test is whether it prefers the verb form that agrees with the subject',
  'card.taskText.reverse':
    'reversal: a random string of symbols → the same symbols in reverse order, character by character',
  'card.taskText.induction':
    'induction: a random sequence A of distinct letters, then A again; predict each next token (the second copy is predictable by looking back)',
  'forgetting.sourceSet':
    'Measured on {count} held-out strings of every length from {min} to {max}:',
  'page.footer':
    'Runs entirely in your browser; nothing is sent anywhere. Embed the views with web/embed.js or web/embed.html.', // The reading and forgetting views (reading-view.js, forgetting-view.js).
  'view.reading': 'Reading',
  'view.forgetting': 'Forgetting',
  'family.memory-rnn': 'memory-RNN language model',
  'family.reverse': 'string-reversal',
  'page.readingTitle': 'Reading word by word: what the model looks back at',
  'page.readingLede':
    'A language model reads the sentence one word at a time (Cheng, Dong & Lapata 2016). For the current word, the arcs and the shading show how much it attended to each earlier word; the number under each word is the probability the model gave it before reading it.',
  'page.forgettingTitle': 'Forgetting: long inputs with and without attention',
  'page.forgettingLede':
    'Two sequence-to-sequence models with the same number of parameters reverse strings of symbols. Without attention one vector has to carry the whole input, and accuracy falls with its length (Bahdanau et al. 2015, Fig. 2).',
  'input.hintReading':
    'Up to {max} characters. The text is lowercased and its punctuation split off before reading; words the model does not know become {unk}.',
  'input.hintReverse':
    'Up to {max} characters. The models know the symbols {symbols}; anything else becomes {unk}.',
  'card.title': 'Model card: {name}',
  'card.task': 'Task',
  'card.architecture': 'Architecture',
  'card.size': 'Size',
  'card.sizeValue': '{parameters} parameters, {kb} KB',
  'card.data': 'Data generator',
  'card.heldout': 'Held-out set',
  'card.command': 'Training command',
  'card.time': 'Training time',
  'card.timeValue': '{seconds} s wall ({cpu} s CPU), {machine}',
  'card.metrics': 'Held-out metrics (as make models printed them)',
  'card.file': 'The whole card (JSON)',
  'card.knows': 'What it knows',
  'card.words': '{n} words',
  'card.years': 'years {min}–{max}',
  'card.lengths': '{min}–{max} tokens',
  'card.best': 'At its best',
  'card.limit': 'Its limit',
  'card.unavailable': 'The model card could not be loaded: {message}',
  'open.button': 'Open a model file…',
  'open.hint': 'or drop one .safetensors file here (at most {limit} MB); it stays on this device.',
  'open.yourFile': 'your file',
  'open.loading': 'Reading your file {name}…',
  'open.failed': 'Your file {name} is not a model this page can open: {message}',
  'open.empty': 'Your file {name} is empty (0 bytes): it is not a model.',
  'open.tooLarge':
    'Your file {name} is {mb} MB; this page opens model files of at most {limit} MB.',
  'open.json':
    '{name} is a JSON file (a model card?), not a model: open the .safetensors file of the model.',
  'open.image': '{name} is an image, not a model: open a .safetensors model file.',
  'open.several': '{n} items were dropped: drop one model file at a time.',
  'open.folder': '{name} is a folder: drop the .safetensors file inside it, not the folder.',
  'open.notFile':
    'What was dropped is not a file (text or a link?): drop one .safetensors model file.',
  'open.unreadable':
    'Your file {name} could not be read ({message}): a folder, or a file moved or deleted since?',
  'open.badValue': 'modelFile must be a File, Blob, ArrayBuffer or Uint8Array, got {kind}.',
  'open.blobFailed':
    'The blob: URL {name} could not be read: it was revoked (URL.revokeObjectURL) or made by another page.',
  'open.noView':
    'Your file {name} is a “{arch}” model, which none of this page’s views draws: what it holds is shown below.',
  'open.linkNote':
    'A link cannot carry a file from your device: this link opens {fallback} instead of {name}.',
  'inspect.label': 'What your file holds',
  'inspect.title': 'Your file: {name} ({kb} KB)',
  'inspect.summary': '{tensors} tensors, {parameters} parameters.',
  'inspect.scales':
    '{n} of them are stored as int8 (I8), each with a row-scale tensor the loader reads with it (not listed, not counted).',
  'inspect.config': 'Config (__metadata__.config)',
  'inspect.noConfig': 'No readable config: {message}',
  'inspect.tensors': 'Tensors ({n})',
  'inspect.name': 'Name',
  'inspect.dtype': 'Type',
  'inspect.shape': 'Shape',
  'inspect.count': 'Parameters',
  'inspect.badCard': 'The file’s card (__metadata__.card) could not be read: {message}',
  'reading.about.lstmn':
    'LSTMN (Cheng, Dong & Lapata 2016): at word t the cell reads a weighted sum of its earlier hidden and memory states; the weights s_t cover the words before t.',
  'reading.about.self-attention-rnn':
    'Self-attention RNN: after word t the cell attends over its states so far (the words up to t, itself included) with weights α_t, and carries their weighted sum to the next word.',
  'reading.about.lstm':
    'Plain LSTM baseline: it has no attention, so there are no arcs and no weights here; only the next-word probabilities.',
  'reading.readAs': 'Read as:',
  'reading.unknown': 'Not in the model’s vocabulary, read as {unk}: {words}',
  'input.hintNormalized':
    'Up to {max} characters, read as the model was trained: lowercased, punctuation and n’t, ’s … split off. Words it does not know become {unk} and are listed below.',
  'input.unknown': 'Not in the model’s vocabulary, read as {unk}: {words}',
  'examples.label': 'Examples',
  'examples.choose': 'Choose an input that shows something…',
  'domain.yearRange':
    'Year {year} is outside the years this model learned ({min}–{max}): the date below is a guess.',
  'domain.noDigits':
    'There are no digits in the input: this model reads dates, so the output below is a guess.',
  'domain.tooLong':
    'The input has {length} characters; the model learned inputs of at most {max}, so the output below is a guess.',
  'domain.noYear':
    'There is no year in the input (a date needs a day, a month and a year): the output below is a guess.',
  'domain.noSuchDay':
    'There is no day {day} in month {month} of {year}: the model never learned month lengths, so it will still write a date.',
  'domain.noDay':
    'The input gives no day (the model learned whole dates: a day, a month and a year), so the day below is a guess.',
  'domain.weekdayMismatch':
    'The input says {written}, but {date} is a {actual}: the model reads the numbers and ignores the weekday.',
  'weekday.0': 'Sunday',
  'weekday.1': 'Monday',
  'weekday.2': 'Tuesday',
  'weekday.3': 'Wednesday',
  'weekday.4': 'Thursday',
  'weekday.5': 'Friday',
  'weekday.6': 'Saturday',
  'domain.unknownChars': 'The model never saw these characters: {chars}; it reads them as unknown.',
  'domain.grammar':
    'The translators learned only the sentences their generator writes, and this is not one of them (a word order or construction it never uses): the French below may be wrong.',
  'domain.tooManyWords':
    'This sentence has {words} words; the translators learned sentences of 3 to {max}: the French below may be wrong.',
  'domain.other': 'The input is outside what this model learned ({code}).',
  'reading.allKnown': 'Every word is in the model’s vocabulary.',
  'reading.back': 'Back',
  'reading.position': 'Current word',
  'reading.positionOf': 'word {t} of {n}: “{word}”',
  'reading.wordsLabel':
    'The sentence, {n} tokens; the current word and its attention over earlier words',
  'reading.keys':
    'Left and right arrow keys move the current word; Home and End go to the first and the last; the weights are read out.',
  'reading.say': 'Word {t} “{word}”, probability {p}. Attends most to “{top}”: {w}.',
  'reading.sayNone': 'Word {t} “{word}”, probability {p}. Nothing earlier to attend to.',
  'reading.sayLstm': 'Word {t} “{word}”, probability {p}.',
  'reading.notPredicted': 'not predicted',
  'reading.legend': 'attention weight from the current word',
  'reading.probTitle': 'After “{word}”, the model expects',
  'reading.cameNext': 'came next',
  'reading.end': 'The last token: nothing follows it.',
  'reading.nextWord': 'The next word “{word}” got probability {p}.',
  'reading.mapTitle': 'Attention so far: row, the word being read; column, an earlier word',
  'reading.mapLabel': 'Attention of each word read (row) over the words (column)',
  'reading.perplexity': 'Perplexity {value} over {count} predicted tokens.',
  'reading.asText': 'The weights and probabilities as text',
  'reading.altRow': '{word} (probability {p}): {weights}',
  'reading.altNone': 'no weights',
  'reading.downloadAll': 'Download every number (JSON)',
  'reading.downloadProbs': 'Download the probabilities (CSV)',
  'status.reading': '{n} in {ms} ms.',
  'forgetting.curveTitle': 'Per-token accuracy against input length (held-out strings)',
  'forgetting.curveLabel': 'Line chart of per-token accuracy against input length',
  'forgetting.keys':
    'Left and right arrow keys move along the lengths, Home and End to the ends; the accuracies are read out.',
  'forgetting.say': 'Length {length}: {lines}.',
  'forgetting.with': 'with attention',
  'forgetting.without': 'without attention',
  'forgetting.lineName': '{kind}: {name}, {params} parameters',
  'forgetting.chance': 'chance (1/{n})',
  'forgetting.xAxis': 'input length (symbols)',
  'forgetting.yAxis': 'per-token accuracy',
  'forgetting.yours': 'your input',
  'forgetting.fixture':
    'Test fixture: these curves were measured on the untrained stand-in models, not on the trained pair.',
  'forgetting.source': 'Measured on {heldout}.',
  'forgetting.curveMissing': 'The length curve is not available: {message}',
  'forgetting.asText': 'The curve as a table',
  'forgetting.length': 'Length',
  'forgetting.exact': 'exact match',
  'forgetting.accuracy': 'per-token accuracy',
  'forgetting.export': 'Download the chart as {kind}',
  'forgetting.runTitle': 'Run a long input through both models',
  'forgetting.random': 'Random string',
  'forgetting.randomHint': 'A held-out string of 5 to 60 symbols a–t, never seen in training.',
  'forgetting.outputCut':
    'These models write at most {max} symbols: the reversal of these {n} stops there.',
  'forgetting.expected': 'Expected (the input reversed)',
  'forgetting.score': '{right} of {total} characters right ({pct})',
  'forgetting.wrongAt': 'wrong at {positions}',
  'forgetting.allRight': 'every character right',
  'forgetting.missing': 'missing',
  'forgetting.mapTitle':
    'Alignment of {name}: row, an output character; column, an input character',
  'forgetting.noPartner':
    'This model has no partner without attention in the registry, so only it is run.',
  'forgetting.noAttention': '{name} has no attention, so it has no alignment to show.',
  'forgetting.downloadRun': 'Download this run (JSON)',
  'status.forgetting': '{length} input symbols through {models} models in {ms} ms.',
  'task.dates': 'Dates → ISO 8601',
  'task.translation': 'English → French',
  'task.induction': 'Induction (copying)',
  'task.reviews': 'Review sentiment',
  'task.agreement': 'Subject–verb agreement',
  'task.reverse': 'String reversal',
  'task.other': 'Other',
  'heatmap.alignmentWords': 'Alignment: output word (row) × input word (column)',
  'heatmap.goldKey': 'outlined: gold alignment',
  'heatmap.goldCell': '(gold)',
  'heatmap.goldSummary': '{n} cells outlined: the gold alignment.',
  // issue 18 (heatmaps that stay readable, exports for a slide): the colour-scale control, the
  // colour bar's caption, the export header, the forgetting chart's legend
  'heatmap.scaleControl': 'Colour scale fixed to 0–1',
  'heatmap.scaleFixed': 'scale fixed: 0–1',
  'heatmap.scaleFit': 'scale fitted to the data',
  'heatmap.scaleFitFrom0': 'scale: 0 to the largest value',
  'heatmap.scaleSymmetric': 'scale symmetric about 0',
  'heatmap.scaleSet': 'scale set by the page',
  'heatmap.exportModel': 'Model: {name}',
  'heatmap.exportInput': 'Input: {text}',
  'heatmap.exportOutput': 'Output: {text}',
  'forgetting.exportModels': 'Models: {names}',
  'gold.toggle': 'Gold alignment',
  'gold.hint':
    'outline the English words each French word translates, as the data generator wrote them',
  'gold.loading': 'Reading the sentence with the data generator…',
  'gold.failed': 'The data generator could not be loaded, so there is no gold alignment: {message}',
  'gold.none':
    'No gold alignment: the data generator cannot produce this sentence (a word or a word order it never writes), so there is nothing to compare the attention with. Try one of the Examples.',
  'gold.metrics':
    'Outlined: the gold alignment ({links} links). AER {aer}: {hits} of {rows} French words put their strongest attention on a gold English word. Gold attention mass {mass}: the share of each French word’s attention on its gold words, averaged.',
  'gold.forced':
    'The model’s output differs from the reference “{reference}”, so the map shows its attention with the reference translation forced (teacher forcing): the gold rows are the reference’s words.',
  'gold.noAttention':
    'This model has no attention: its map is empty, so there is no AER to measure.',
  'gold.kind':
    'The gold alignment is drawn over cross-attention (output × input) only: choose it under Attention.',
  'gold.timeReady':
    'Nothing decoded yet: press Step or Play, and the gold alignment is outlined over each row as it is decoded.',
  'gold.timeSoFar':
    'The output so far is the reference’s first {rows} of {total} words (counting the end token), so the outline and the numbers below cover the rows decoded so far.',
  'gold.timeForced':
    'The output so far differs from the reference “{reference}”, so the map shows the attention over the reference’s first {rows} words with the reference forced (teacher forcing), not over the words decoded; the output above is the model’s own.',
  'gold.compare':
    'Outlined on every model’s map: the gold alignment of the reference “{reference}” ({links} links). Under each map, that model’s AER (lower is better) and gold attention mass (higher is better); a map marked “reference forced” shows that model’s attention with the reference forced (teacher forcing), because its own output differs. A − B below compares the models’ own outputs.',
  'gold.compareScore': 'AER {aer} · gold mass {mass}',
  'gold.compareForced': '(reference forced)',
  'gold.compareNone': 'No attention: nothing to score.',
};

const ZH = {
  'lang.name': '中文',
  'lang.label': '语言',
  'view.label': '视图',
  'view.alignment': '对齐',
  'view.time': '逐步解码',
  'view.compare': '比较',
  'view.playground': 'SDPA 演练场',
  'view.train': '训练',
  'view.lab': '实验室',
  'view.heads': '注意力头',
  'view.pooling': '池化',
  'family.seq2seq': '序列到序列',
  'family.transformer': 'Transformer',
  'family.classifier': '分类器',
  'model.wrongView': '模型 {name} 不是此视图所展示的{family}模型；改为显示 {fallback}。',
  'model.wrongArch': '此视图展示{family}模型，而 {name} 是“{arch}”模型：请选择其他模型。',
  'page.headsTitle': 'Transformer 的注意力：每一层、每一个头',
  'page.headsLede':
    '输入文字：模型在浏览器中运行，每张小图显示某一层的某一个头（行是查询词元，列是键词元）。单击或按 Enter 选择一张图即可放大，并逐格读取。',
  'page.poolingTitle': '分类器关注了哪些词',
  'page.poolingLede':
    '输入一句话：分类器在浏览器中运行，每个词按注意力池化在预测标签前给它的权重着色。',
  'heads.variant.encoder': '编码器（每个位置都能看到所有位置）。',
  'heads.variant.decoder': '仅解码器语言模型（因果：位置 t 只能看到 s ≤ t 的位置；模型续写输入）。',
  'heads.variant.encoder-decoder':
    '编码器-解码器（编码器自注意力、因果的解码器自注意力，以及从输出到输入的交叉注意力）。',
  'heads.pos.learned': '绝对位置：每个位置一个学习得到的向量（最多 {max} 个），加到词元嵌入上。',
  'heads.pos.sinusoidal':
    '绝对位置：固定的正弦函数（Vaswani 等 2017，§3.5）加到词元嵌入上；没有权重。',
  'heads.pos.relative':
    '相对位置（Shaw 等 2018）：注意力通过学习得到的向量看到键与查询之间的偏移 j − i，截断到 ±{k}；嵌入上不加任何东西。',
  'heads.pos.unknown': '位置：“{value}”。',
  'heads.continuation': '续写',
  'heads.labels': '标签',
  'heads.kind': '注意力',
  'heads.kind.encoder': '编码器自注意力',
  'heads.kind.decoder': '解码器自注意力',
  'heads.kind.cross': '交叉注意力（输出 × 输入）',
  'heads.grid': '{layers} × {heads}',
  'heads.gridLabel': '注意力图：每层一行，每个头一列',
  'heads.gridKeys': '方向键在图之间移动；按 Enter 放大。',
  'heads.layer': '第 {layer} 层',
  'heads.head': '头 {head}',
  'heads.thumb':
    '第 {layer} 层，头 {head}：{rows} × {cols} 个权重；最大 {value}（查询“{row}”到键“{col}”）。放大。',
  'heads.thumbShort': '第 {layer} 层，头 {head}',
  'heads.legend': '所有图使用同一刻度',
  'heads.selected': '第 {layer} 层，头 {head}：{kind}',
  'heads.mapLabel': '第 {layer} 层 头 {head} {kind}：查询（行）× 键（列）',
  'heads.downloadAll': '下载所有图（JSON）',
  'heads.relTitle': '截断的相对距离 clip(j − i, −{k}, {k})',
  'heads.relNote':
    '查询 i（行）通过第 clip(j − i, −{k}, {k}) + {k} 个学习向量看到键 j（列）：每层 {n} 个向量，所有位置共用。蓝：键在查询之前；红：在其之后。',
  'heads.relCross': '交叉注意力不使用相对位置：只有自注意力使用。',
  'heads.distLabel': '截断的相对距离 clip(j − i, −{k}, {k})：查询（行）× 键（列）',
  'status.heads': '{layers} × {heads}，每张 {rows} × {cols} 个权重，用时 {ms} 毫秒。',
  'pooling.about.attention':
    '注意力池化（Zhou 等 2016）：对各词计算 α = softmax(w · tanh(H))，分类器读取 Σ αⱼ hⱼ。',
  'pooling.about.han':
    '层次注意力（Yang 等 2016）：每个句子内部的词权重 α（每句之和为 1），再对句子计算句子权重 β（“.”结束一个句子）。',
  'pooling.about.structured':
    '结构化自注意力（Lin 等 2017）：{r} 个注意力跳（“hop”），每个对各词做一次 softmax（A 的各行）；分类器读取全部。',
  'pooling.predicted': '预测',
  'pooling.probs': '各类别概率',
  'pooling.words.attention': '按权重 α 着色的词',
  'pooling.words.han': '句子（标注 β）及其中的词（按 α 着色）',
  'pooling.words.structured': '每个跳一行，词按 A 着色',
  'pooling.legend': '权重',
  'pooling.legendHan': '词权重和句子权重使用同一刻度',
  'pooling.wordsLabel': '按注意力权重着色的输入词：{rows} 行，{words} 个词',
  'pooling.keys': '左右方向键在词之间移动，上下方向键在行之间移动；会读出权重。',
  'pooling.sentence': '句{n}',
  'pooling.sentenceWeight': '第 {n} 句，权重 β = {value}',
  'pooling.hop': '跳 {n}',
  'pooling.asText': '以文字列出权重',
  'pooling.map.attention': '词权重 α（1 × 词数）',
  'pooling.map.han': '词权重 α，每句之和为 1（1 × 词数）',
  'pooling.map.structured': '结构化注意力 A（跳数 × 词数）',
  'pooling.map.sentences': '句子权重 β（1 × 句子数）',
  'pooling.penalty':
    '惩罚项 ‖AAᵀ − I‖²_F = {value}（r = {r}；当每个跳把全部权重放在不同的词上时为 0）。',
  'pooling.downloadAll': '下载全部数值（JSON）',
  'pooling.say': '第 {index} 个词“{word}”：{value}',
  'pooling.sayHan': '第 {n} 句（β {sentence}），第 {index} 个词“{word}”：{value}',
  'pooling.sayHop': '跳 {n}，第 {index} 个词“{word}”：{value}',
  'status.pooling': '{words}，{rows}，用时 {ms} 毫秒。',
  'train.title': '在浏览器中训练日期模型',
  'train.lede':
    '双向 LSTM 编码器和带加性（Bahdanau）注意力的 LSTM 解码器，从随机权重开始，在后台 Worker 中学习把各种写法的日期转换成 ISO 日期。观察损失下降、对齐逐渐成形。',
  'train.lr': '学习率（Adam）',
  'train.batch': '批大小',
  'train.logScale': '损失使用对数刻度',
  'train.start': '开始',
  'train.resume': '继续',
  'train.pause': '暂停',
  'train.reset': '重置',
  'train.invalidLr': '请输入 {min} 到 {max} 之间的数，例如 0.003。',
  'train.invalidBatch': '请输入 {min} 到 {max} 之间的整数。',
  'train.invalid': '无效的值。',
  'train.step': '步数',
  'train.loss': '损失（最近 {n} 步的平均）',
  'train.elapsed': '训练时间',
  'train.rate': '每秒 {rate} 步',
  'train.exact': '留出集完全匹配率（{count} 个从未训练过的日期）',
  'train.output': '“{example}”的输出',
  'train.expected': '应为 {target}',
  'train.chart': '每步损失与留出集完全匹配率',
  'train.chartAlt': '损失图：第 {step} 步，损失 {loss}，留出集完全匹配率 {exact}。',
  'train.chartEmpty': '按“开始”进行训练。',
  'train.axisStep': '步数',
  'train.axisLoss': '损失',
  'train.axisExact': '留出集完全匹配',
  'train.heatmap': '“{example}”当前的对齐：输出字符（行）× 输入字符（列）',
  'train.loading': '正在启动训练 Worker…',
  'train.ready': '就绪：随机权重（种子 1）。按“开始”。',
  'train.running': '正在后台 Worker 中训练；页面保持响应。',
  'train.paused': '已在第 {step} 步暂停。',
  'train.reached': '训练 {seconds} 秒后（第 {step} 步）留出集完全匹配率达到 {pct}。',
  'train.error': '训练已停止：{message}',
  'train.noWorker': '此浏览器无法运行模块 Worker，因此无法在此训练。',
  // 导学课程（lesson-view.js；各步文字在 lesson-text.js）
  'view.lesson': '课程',
  'lesson.title': '导学课程：一步一步认识注意力',
  'lesson.lede':
    '沿着论文走十步，从会遗忘的编码器–解码器到 Transformer 的注意力头，每一步都有一个可以动手试的实时模型。用 ← 和 → 键在各步之间移动。',
  'lesson.failed': '无法加载课程：{message}',
  'model.label': '模型',
  'model.untrained': '未训练的测试模型',
  'model.loading': '正在加载模型 {name}…',
  'load.code': '无法加载页面代码：',
  'load.wasm': '无法加载 attnlab WebAssembly 模块：',
  'load.model': '模型 {name} 不可用：',
  'load.file':
    '以文件（file://）打开的页面无法获取 {url}。请改用 http 提供此页面：在 attnlab 文件夹中运行 node scripts/serve.mjs，然后打开它显示的地址。',
  'load.cors':
    '浏览器拒绝了 {url}：它与本页面不同源（或重定向到其他源），或本页面位于沙盒 iframe 中，而服务器没有发送 Access-Control-Allow-Origin。服务器必须为 .js、.wasm 和模型文件发送这个响应头（node scripts/serve.mjs 会发送；在静态托管上请开启 CORS）。',
  'load.unreachable': '无法获取 {url}：服务器没有响应。请检查地址，以及服务器是否在运行。',
  'load.http': '{url} 返回 HTTP {status}。',
  'load.missing.code': '文件缺失：请把 web/ 和 wasm/ 并排复制到服务器上，或检查路径。',
  'load.missing.wasm':
    '文件缺失：请把 wasm/ 连同其中的 .wasm 文件复制到 web/ 旁边（make wasm 会构建它们），或检查路径。',
  'load.missing.model': '文件缺失：请运行 make models，或检查路径；也可以选择其他模型。',
  'load.http.other': '请检查路径和服务器日志。',
  'load.broken': '{url} 或它导入的某个模块无法运行：浏览器的控制台会指出是哪个文件、什么问题。',
  'status.notRunning': '未运行。',
  'model.failed': '无法加载模型 {name}：{message}',
  'model.needsNetwork': '需要联网',
  'model.offline':
    '模型 {name} 需要联网：它尚未保存在本设备上，而浏览器处于离线状态。请联网后再加载，或选择没有标注“需要联网”的模型。',
  'status.offline': '离线：之前访问时看过的模型可以从本设备打开；标注“需要联网”的模型不能。',
  'view.offline': '“{view}”视图需要联网：它的代码尚未保存在本设备上，而浏览器处于离线状态。',
  'model.refused': '已拒绝模型“{value}”：只能加载列表中的模型或同源的 .safetensors 路径。',
  'input.label': '输入',
  'input.placeholder': '在此输入',
  'input.hint': '最多 {max} 个字符。模型不认识的字符会变成 {unk}。',
  'input.hintWords': '最多 {max} 个字符，按空格分词。模型不认识的词会变成 {unk}；“.”结束一个句子。',
  'input.empty': '请输入内容：模型至少需要一个输入词元。',
  'output.label': '输出',
  'output.none': '（空）',
  'heatmap.alignment': '对齐：输出字符（行）× 输入字符（列）',
  'heatmap.time': '目前的对齐，每个解码词元一行',
  'heatmap.diff': '差值 {a} − {b}',
  'status.wasm': '正在加载 WebAssembly 模块…',
  'status.simd': '就绪：模型在你的浏览器中运行，使用其快速向量指令（WebAssembly SIMD128）。',
  'status.scalar':
    '就绪：模型在你的浏览器中运行，但较慢：此浏览器没有快速向量指令（WebAssembly SIMD128）。',
  'status.ran': '{rows} 个输出 × {cols} 个输入词元，用时 {ms} 毫秒。',
  'error.wasm': '无法启动 attnlab WebAssembly 模块：{message}',
  'error.run': '模型无法处理此输入：{message}',
  'explain.prompt': '将鼠标悬停在单元格上或聚焦单元格（方向键），查看其权重的计算过程。',
  'explain.cell': '输出 {row}“{rowLabel}”关注输入 {col}“{colLabel}”',
  'explain.mechanism': '机制：{name}',
  'explain.score': '得分 eₜⱼ − maxₖ eₜₖ',
  'explain.exp': 'exp(eₜⱼ − max)',
  'explain.sum': 'Σₖ exp(eₜₖ − max)',
  'explain.softmax': 'softmax',
  'explain.gauss': '高斯因子 exp(−(j − pₜ)² / 2σ²)',
  'explain.weight': '权重 αₜⱼ',
  'explain.rank': '行内排名',
  'explain.rowSum': '行和 Σⱼ αₜⱼ',
  'explain.position': '预测位置 pₜ',
  'explain.window': '窗口 pₜ ± D',
  'explain.outside': '在窗口之外：权重按定义为 0',
  'explain.underflow': '−∞（权重下溢为 0）',
  'explain.none': '此模型没有注意力：所有权重为 0，解码器只看自身状态。',
  'explain.honest':
    'attnlab 返回的是权重而不是得分。softmax 对所有得分加同一常数不变，因此得分以该行最大值为基准显示：eₜⱼ − maxₖ eₜₖ = ln αₜⱼ − ln maxₖ αₜₖ（在 float32 舍入误差内精确）。原始得分需要解码器状态，而 API 不提供。',
  'explain.honestLocal':
    '局部注意力先在窗口内做 softmax，再乘以高斯因子，因此 softmax = αₜⱼ / 高斯因子，得分由此恢复。',
  'time.play': '播放',
  'time.pause': '暂停',
  'time.step': '单步',
  'time.reset': '重置',
  'time.progress': '第 {step} 步：输出“{token}”。',
  'time.done': '共 {steps}后结束。',
  'time.ready': '按“播放”或“单步”逐个解码词元。',
  'time.window': '框线：预测窗口 pₜ ± D = {p} ± {d}。',
  'compare.intro': '同一输入经过每个模型。差值图显示 A − B（红：A 关注更多，蓝：B 关注更多）。',
  'compare.a': '模型 A',
  'compare.b': '模型 B',
  'compare.forced': 'B 以教师强制方式按 A 的输出解码，因此两者的每一行对应同一输出词元。',
  'compare.prefix': '两个模型的词表不同：只比较前 {rows} 个输出步。',
  'compare.skipped': '未显示（不可用）：{names}。',
  'link.label': '此视图的链接',
  'link.embed': '嵌入此视图',
  // Issue 18, every view state (i18-state branch); see the English block.
  'count.words#one': '{n} 个词',
  'count.words#other': '{n} 个词',
  'count.rows#one': '{n} 行权重',
  'count.rows#other': '{n} 行权重',
  'count.layers#one': '{n} 层',
  'count.layers#other': '{n} 层',
  'count.heads#one': '{n} 个头',
  'count.heads#other': '{n} 个头',
  'count.steps#one': '{n} 步',
  'count.steps#other': '{n} 步',
  'count.tokens#one': '{n} 个词元',
  'count.tokens#other': '{n} 个词元',
  'unit.char': '个字符',
  'unit.word': '个词',
  'input.limit': '{name} 最多读入 {max} {unit}：它只为这么多位置学过位置向量。',
  'input.tooLong':
    '对 {name} 来说太长了：它最多读入 {max} {unit}（每个位置一个学过的位置向量），而这个输入有 {n} 个。请缩短。',
  'status.blank': '没有可显示的内容：{reason}',
  'status.notRun': '未运行。',
  'attention.none':
    '这个模型没有注意力：它的解码器只通过编码器的最后一个状态看到输入，所以没有可画的权重。它的输出显示在上面。',
  'time.intro': '解码器每一步写出一个词元；每一步增加一行：该词元对每个输入词元的关注程度。',
  'time.introLocal':
    '这个 local-p 模型还会在每一步预测输入上的一个窗口 pₜ ± D（Luong 等 2015，式 9）；最新一行的窗口用框线标出。',
  'time.whole': '完整的输出，共解码 {steps}。按“播放”可逐个词元重看一遍，或按“重置”后从头“单步”。',
  'index.note': '在链接和属性中：layer={layer} head={head}（从 0 开始计数）。',
  'index.step': '在链接和属性中：step={step}（从 0 开始计数）。',
  'link.copy': '复制链接',
  'link.copied': '链接已复制到剪贴板。',
  'link.copyManual': '浏览器拒绝了复制：请选中下面的链接自行复制。',
  'train.badge': '运行中',
  'train.badgeLabel': '训练正在后台运行',
  'page.labTitle': '注意力实验室：设计、训练并比较两个模型',
  'page.labLede':
    '选一个任务，搭建模型 A 和模型 B，在后台线程中用同样的数据同时训练两者：并排观察它们的损失、留出集准确率、按输入长度的准确率和注意力。',
  'page.labBadge': '实验室正在后台训练',
  'page.labFailed': '无法加载实验室：{message}',
  'train.background':
    '查看其他视图时训练会继续运行；其间“训练”标签上会显示一个圆点。要停止，请在这里暂停。',
  'train.spikes':
    '为什么损失偶尔跳高：每个点是 {steps} 个随机批次的平均值，而 Adam 的步长不会随梯度变小，因此在这个学习率下偶尔会有一步走过头，损失随之跳高。梯度的全局范数已经裁剪到 1，限制了单步能走多远；损失会在几个点之内回落。较小的学习率带来更少、更小的跳高，训练也更慢。',
  'url.refused': '已忽略无效参数：{list}',
  'url.inputCut': '链接中的输入有 {n} 个字符；输入框最多 {max} 个，因此只使用前 {max} 个。',
  'legend.diverging': '红：A 较高 · 白：相等 · 蓝：B 较高',
  'export.group': '导出',
  'heatmap.download': '下载为 {kind}',
  'heatmap.noData': '{label}：无数据。',
  'heatmap.summary': '{label}：{rows} 行 × {cols} 列，颜色范围从 {min} 到 {max}。',
  'heatmap.keys':
    '方向键在单元格间移动；Home 和 End 跳到行首和行尾，Page Up 和 Page Down 一次移动 10 行。',
  'heatmap.downloads': '数值可通过 CSV 和 JSON 下载获得。',
  'page.tagline': '用 C 编写、编译为 WebAssembly SIMD128 的注意力内核，权重清晰可见。',
  'page.modelsLedeWords':
    '输入一个英语句子：每次按键模型都会在浏览器中把它译成法语，热图显示每个法语输出词（行）对每个英语输入词（列）的关注程度。',
  'page.modelsTitle': '序列到序列模型的注意力，实时呈现',
  'page.modelsLede':
    '输入文字：每次按键模型都会在浏览器中运行，热图显示每个输出字符（行）对每个输入字符（列）的关注程度。',
  'page.sdpaTitle': '缩放点积注意力演练场',
  // 页面标题、页头和 SDPA 演练场（index.html #sdpa-view、main.js），以及模型卡和热图元素中原先只有英文的字符串（issue 18）。
  'page.title': 'attnlab：WebAssembly 中的注意力内核',
  'page.embedTitle': 'attnlab：实时注意力',
  'status.loadingLabel': '加载中',
  'sdpa.lede':
    '查询 Q [n × d]、键 K [m × d] 和值 V [m × d] 由带种子的随机数生成器产生；热图显示 softmax(Q Kᵀ × 缩放系数)，即每个查询（行）分给每个键（列）的权重。',
  'sdpa.queries': '查询数',
  'sdpa.keys': '键数',
  'sdpa.headSize': '头维度',
  'sdpa.seed': '随机种子',
  'sdpa.reseed': '换一个种子',
  'sdpa.causal': '因果掩码（查询 i 只看键 j ≤ i）',
  'sdpa.scale': '缩放系数（逆温度）',
  'sdpa.scaleAuto': '使用 1/√d',
  'sdpa.heatmap': '注意力权重（查询 × 键）',
  'sdpa.readoutPrompt': '点击一个单元格，或聚焦热图后用方向键移动，即可读出权重。',
  'sdpa.readout': '查询 {row} 分给键 {col} 的权重为 {value}。',
  'sdpa.info': '{n} × {m} 个权重，d = {d}，缩放系数 {scale}；用时 {ms} 毫秒。',
  'sdpa.infoCausal': '{n} × {m} 个权重，d = {d}，缩放系数 {scale}，因果掩码；用时 {ms} 毫秒。',
  'sdpa.error': 'attnlab 无法计算此视图（{code}）：{message}',
  'sdpa.shapeError': 'attnlab 返回的权重形状为 [{shape}]，应为 [{n}, {m}]。',
  'train.loadFailed': '无法加载训练视图：{message}',
  'heatmap.defaultLabel': '热图',
  'heatmap.size': '{label}，{rows} 行 × {cols} 列',
  'train.axisLossLog': '损失（对数刻度）',
  // 模型卡的数据生成器和留出集按任务的说明，在非英语页面上显示在模型卡原文（英文、代码）之上（model-card.js）
  'card.about.dates.data': '用多种人类写法随机写出的日期',
  'card.about.dates.heldout': '用留出的随机种子生成的日期，分两组：命名格式及其变体',
  'card.about.translation.data': '一个小型语法生成的英语句子，及其法语译文和标准词对齐',
  'card.about.translation.heldout': '用留出的随机种子生成的句子，以及按句长各取一组的句子',
  'card.about.reviews.data': '由模板和情感词表写成的评论，保留原样（大写、缩写、标点）',
  'card.about.reviews.heldout': '用留出的随机种子生成的评论',
  'card.about.agreement.data': 'Brown 语料库，以及扩展到其词表的主谓一致语法',
  'card.about.agreement.heldout':
    '困惑度：全部留出的 Brown 句子；主谓一致：留出 Brown 句子中的主谓对（按 Linzen 等 2016 的方法）、从未用于训练的手写句对、页面的语法及一个嵌套更深的语法',
  'card.about.reverse.data': '由符号 a–t 组成的随机字符串',
  'card.about.reverse.heldout': '留出的随机字符串，每个长度数量相同',
  'card.about.induction.data': '一串由不同字母组成的随机序列 A，再重复一遍 A',
  'card.about.induction.heldout': '用留出的随机种子生成的序列；归纳头得分取自其中一部分',
  'train.seconds': '{s} 秒',
  'card.taskText.dates': '日期：多种人类写法之一的日期 → ISO 8601 格式（年-月-日），逐字符输出',
  'card.taskText.translation': '翻译：英语 → 法语，逐词输出，附标准词对齐',
  'card.taskText.reviews':
    '按原样输入的评论（电影、书籍、餐厅、酒店、商品；1–4 句）的情感 → 负面或正面',
  'card.taskText.agreement':
    '英语语言模型：预测句子的下一个词（Brown 语料库）；测试它是否偏好与主语一致的动词形式',
  'card.taskText.reverse': '反转：一串随机符号 → 同样的符号按相反顺序，逐字符输出',
  'card.taskText.induction':
    '归纳：一串由不同字母组成的随机序列 A，再重复一遍 A；预测每个下一个词元（第二遍可通过回看预测）',
  'forgetting.sourceSet': '测量数据：每个长度（{min} 到 {max}）各 {count} 个留出字符串：',
  'page.footer':
    '完全在浏览器中运行，不向任何地方发送数据。可用 web/embed.js 或 web/embed.html 嵌入这些视图。', // 阅读与遗忘视图（reading-view.js、forgetting-view.js）。
  'view.reading': '阅读',
  'view.forgetting': '遗忘',
  'family.memory-rnn': '记忆循环网络语言模型',
  'family.reverse': '字符串反转',
  'page.readingTitle': '逐词阅读：模型回看了哪些词',
  'page.readingLede':
    '语言模型一次读一个词（Cheng、Dong 与 Lapata 2016）。对当前词，弧线和底色显示它对前面每个词的注意力；每个词下方的数字是模型在读到它之前给它的概率。',
  'page.forgettingTitle': '遗忘：有无注意力时的长输入',
  'page.forgettingLede':
    '两个参数量相同的序列到序列模型把符号串反转。没有注意力时，一个向量必须承载整个输入，准确率随长度下降（Bahdanau 等 2015，图 2）。',
  'input.hintReading':
    '最多 {max} 个字符。阅读前文本会转成小写并拆开标点；模型不认识的词会变成 {unk}。',
  'input.hintReverse': '最多 {max} 个字符。模型认识的符号是 {symbols}；其他字符会变成 {unk}。',
  'card.title': '模型卡：{name}',
  'card.task': '任务',
  'card.architecture': '结构',
  'card.size': '大小',
  'card.sizeValue': '{parameters} 个参数，{kb} KB',
  'card.data': '数据生成器',
  'card.heldout': '留出集',
  'card.command': '训练命令',
  'card.time': '训练时间',
  'card.timeValue': '墙钟 {seconds} 秒（CPU {cpu} 秒），{machine}',
  'card.metrics': '留出集指标（make models 打印的数值）',
  'card.file': '完整模型卡（JSON）',
  'card.knows': '它知道什么',
  'card.words': '{n} 个词',
  'card.years': '{min}–{max} 年',
  'card.lengths': '{min}–{max} 个词元',
  'card.best': '最佳表现',
  'card.limit': '它的极限',
  'card.unavailable': '无法加载模型卡：{message}',
  'open.button': '打开模型文件…',
  'open.hint': '或将一个 .safetensors 文件拖放到这里（至多 {limit} MB）；文件不会离开此设备。',
  'open.yourFile': '你的文件',
  'open.loading': '正在读取你的文件 {name}…',
  'open.failed': '你的文件 {name} 不是此页面能打开的模型：{message}',
  'open.empty': '你的文件 {name} 是空的（0 字节）：不是模型。',
  'open.tooLarge': '你的文件 {name} 有 {mb} MB；此页面只打开至多 {limit} MB 的模型文件。',
  'open.json': '{name} 是 JSON 文件（模型卡？），不是模型：请打开模型的 .safetensors 文件。',
  'open.image': '{name} 是图片，不是模型：请打开 .safetensors 模型文件。',
  'open.several': '拖放了 {n} 项：请一次只拖放一个模型文件。',
  'open.folder': '{name} 是文件夹：请拖放其中的 .safetensors 文件，而不是文件夹。',
  'open.notFile': '拖放的不是文件（文本或链接？）：请拖放一个 .safetensors 模型文件。',
  'open.unreadable': '无法读取你的文件 {name}（{message}）：是文件夹，或文件已被移动或删除？',
  'open.badValue': 'modelFile 必须是 File、Blob、ArrayBuffer 或 Uint8Array，收到的是 {kind}。',
  'open.blobFailed':
    '无法读取 blob: URL {name}：它已被撤销（URL.revokeObjectURL），或由另一个页面创建。',
  'open.noView': '你的文件 {name} 是“{arch}”模型，此页面没有视图能展示它：其内容列在下方。',
  'open.linkNote': '链接无法携带你设备上的文件：此链接打开的是 {fallback}，而不是 {name}。',
  'inspect.label': '你的文件包含什么',
  'inspect.title': '你的文件：{name}（{kb} KB）',
  'inspect.summary': '{tensors} 个张量，{parameters} 个参数。',
  'inspect.scales':
    '其中 {n} 个以 int8（I8）存储，各带一个由加载器一并读取的行缩放张量（未列出，未计入）。',
  'inspect.config': '配置（__metadata__.config）',
  'inspect.noConfig': '没有可读的配置：{message}',
  'inspect.tensors': '张量（{n}）',
  'inspect.name': '名称',
  'inspect.dtype': '类型',
  'inspect.shape': '形状',
  'inspect.count': '参数',
  'inspect.badCard': '无法读取文件中的模型卡（__metadata__.card）：{message}',
  'reading.about.lstmn':
    'LSTMN（Cheng、Dong 与 Lapata 2016）：读到第 t 个词时，单元读取它之前的隐藏状态和记忆的加权和；权重 s_t 覆盖 t 之前的词。',
  'reading.about.self-attention-rnn':
    '自注意力 RNN：读完第 t 个词后，单元对目前为止的状态（到 t 为止的词，包括自身）施加注意力，权重为 α_t，并把加权和带到下一个词。',
  'reading.about.lstm': '普通 LSTM 基线：没有注意力，所以这里没有弧线和权重，只有下一个词的概率。',
  'reading.readAs': '读作：',
  'reading.unknown': '不在模型词表中、读作 {unk} 的词：{words}',
  'input.hintNormalized':
    '最多 {max} 个字符，按模型训练时的方式读入：转为小写，标点和 n’t、’s 等拆开。模型不认识的词读作 {unk}，并列在下方。',
  'input.unknown': '不在模型词表中、读作 {unk} 的词：{words}',
  'examples.label': '示例',
  'examples.choose': '选一个能说明问题的输入……',
  'domain.yearRange': '{year} 年不在模型学过的年份范围（{min}–{max}）内：下面的日期只是猜测。',
  'domain.noDigits': '输入中没有数字：这个模型读的是日期，下面的输出只是猜测。',
  'domain.tooLong': '输入有 {length} 个字符，模型学过的输入最多 {max} 个字符：下面的输出只是猜测。',
  'domain.noYear': '输入中没有年份（日期需要日、月、年）：下面的输出只是猜测。',
  'domain.noSuchDay':
    '{year} 年 {month} 月没有 {day} 日：模型没有学过每月的天数，所以它仍会写出一个日期。',
  'domain.noDay': '输入中没有日（模型学的是完整的日期：日、月、年），所以下面的日只是猜测。',
  'domain.weekdayMismatch': '输入写的是{written}，但 {date} 是{actual}：模型只读数字，不看星期几。',
  'weekday.0': '星期日',
  'weekday.1': '星期一',
  'weekday.2': '星期二',
  'weekday.3': '星期三',
  'weekday.4': '星期四',
  'weekday.5': '星期五',
  'weekday.6': '星期六',
  'domain.unknownChars': '模型从未见过这些字符：{chars}；它把它们当作未知字符读。',
  'domain.grammar':
    '翻译模型只学过其生成器写出的句子，而这一句不在其中（生成器从不使用这种词序或结构）：下面的法语可能有误。',
  'domain.tooManyWords':
    '这句有 {words} 个词；翻译模型学过的句子是 3 到 {max} 个词：下面的法语可能有误。',
  'domain.other': '输入超出了模型学过的范围（{code}）。',
  'reading.allKnown': '每个词都在模型的词表中。',
  'reading.back': '后退',
  'reading.position': '当前词',
  'reading.positionOf': '第 {t} 个词，共 {n} 个：“{word}”',
  'reading.wordsLabel': '句子，共 {n} 个词元；当前词及其对前面各词的注意力',
  'reading.keys': '左右方向键移动当前词；Home 和 End 跳到第一个和最后一个；会朗读权重。',
  'reading.say': '第 {t} 个词“{word}”，概率 {p}。最关注“{top}”：{w}。',
  'reading.sayNone': '第 {t} 个词“{word}”，概率 {p}。前面没有可关注的词。',
  'reading.sayLstm': '第 {t} 个词“{word}”，概率 {p}。',
  'reading.notPredicted': '不预测',
  'reading.legend': '当前词的注意力权重',
  'reading.probTitle': '在“{word}”之后，模型预计',
  'reading.cameNext': '实际下一个词',
  'reading.end': '最后一个词元：后面没有词了。',
  'reading.nextWord': '下一个词“{word}”的概率为 {p}。',
  'reading.mapTitle': '到目前为止的注意力：行是正在读的词，列是前面的词',
  'reading.mapLabel': '每个已读词（行）对各词（列）的注意力',
  'reading.perplexity': '困惑度 {value}，共预测 {count} 个词元。',
  'reading.asText': '以文字形式查看权重和概率',
  'reading.altRow': '{word}（概率 {p}）：{weights}',
  'reading.altNone': '没有权重',
  'reading.downloadAll': '下载全部数值（JSON）',
  'reading.downloadProbs': '下载概率（CSV）',
  'status.reading': '{n}，用时 {ms} 毫秒。',
  'forgetting.curveTitle': '逐词元准确率与输入长度（留出的字符串）',
  'forgetting.curveLabel': '折线图：逐词元准确率与输入长度',
  'forgetting.keys': '左右方向键沿长度移动，Home 和 End 跳到两端；会朗读准确率。',
  'forgetting.say': '长度 {length}：{lines}。',
  'forgetting.with': '有注意力',
  'forgetting.without': '无注意力',
  'forgetting.lineName': '{kind}：{name}，{params} 个参数',
  'forgetting.chance': '随机水平（1/{n}）',
  'forgetting.xAxis': '输入长度（符号数）',
  'forgetting.yAxis': '逐词元准确率',
  'forgetting.yours': '你的输入',
  'forgetting.fixture':
    '测试用数据：这些曲线是在未训练的替身模型上测得的，不是训练好的那一对模型。',
  'forgetting.source': '测量数据：{heldout}。',
  'forgetting.curveMissing': '长度曲线不可用：{message}',
  'forgetting.asText': '以表格形式查看曲线',
  'forgetting.length': '长度',
  'forgetting.exact': '完全匹配',
  'forgetting.accuracy': '逐词元准确率',
  'forgetting.export': '将图表下载为 {kind}',
  'forgetting.runTitle': '让两个模型处理同一个长输入',
  'forgetting.random': '随机字符串',
  'forgetting.randomHint': '一个 5 到 60 个符号（a–t）的留出字符串，训练中从未出现。',
  'forgetting.outputCut': '这些模型最多写出 {max} 个符号：这 {n} 个符号的倒序在那里截止。',
  'forgetting.expected': '期望输出（输入的反转）',
  'forgetting.score': '{total} 个字符中对了 {right} 个（{pct}）',
  'forgetting.wrongAt': '错误位置：{positions}',
  'forgetting.allRight': '全部字符正确',
  'forgetting.missing': '缺失',
  'forgetting.mapTitle': '{name} 的对齐：行是输出字符，列是输入字符',
  'forgetting.noPartner': '注册表中没有与此模型配对的无注意力模型，只运行它。',
  'forgetting.noAttention': '{name} 没有注意力，因此没有对齐可显示。',
  'forgetting.downloadRun': '下载本次运行（JSON）',
  'status.forgetting': '{length} 个输入符号，{models} 个模型，用时 {ms} 毫秒。',
  'task.dates': '日期 → ISO 8601',
  'task.translation': '英语 → 法语',
  'task.induction': '归纳（复制）',
  'task.reviews': '评论情感',
  'task.agreement': '主谓一致',
  'task.reverse': '字符串反转',
  'task.other': '其他',
  'heatmap.alignmentWords': '对齐：输出词（行）× 输入词（列）',
  'heatmap.goldKey': '描边：标准对齐',
  'heatmap.goldCell': '（标准）',
  'heatmap.goldSummary': '{n} 个单元格有描边：标准对齐。',
  // issue 18: the colour-scale control, the colour bar's caption, the export header, the chart legend
  'heatmap.scaleControl': '颜色刻度固定为 0–1',
  'heatmap.scaleFixed': '刻度固定：0–1',
  'heatmap.scaleFit': '刻度按数据拟合',
  'heatmap.scaleFitFrom0': '刻度：0 到最大值',
  'heatmap.scaleSymmetric': '刻度关于 0 对称',
  'heatmap.scaleSet': '刻度由页面设定',
  'heatmap.exportModel': '模型：{name}',
  'heatmap.exportInput': '输入：{text}',
  'heatmap.exportOutput': '输出：{text}',
  'forgetting.exportModels': '模型：{names}',
  'gold.toggle': '标准对齐',
  'gold.hint': '按数据生成器的写法，框出每个法语词所翻译的英语词',
  'gold.loading': '正在用数据生成器解析句子……',
  'gold.failed': '无法加载数据生成器，因此没有标准对齐：{message}',
  'gold.none':
    '没有标准对齐：数据生成器写不出这个句子（有它从不使用的词或词序），因此无法与注意力比较。请试试“示例”中的句子。',
  'gold.metrics':
    '描边：标准对齐（{links} 条连接）。AER {aer}：{rows} 个法语词中有 {hits} 个把最强的注意力放在标准对齐的英语词上。标准注意力质量 {mass}：每个法语词落在其标准英语词上的注意力份额的平均值。',
  'gold.forced':
    '模型的输出与参考译文“{reference}”不同，因此图中是强制输入参考译文（教师强制）时的注意力：标准对齐的行就是参考译文的词。',
  'gold.noAttention': '这个模型没有注意力：它的图是空的，因此没有 AER 可测。',
  'gold.kind': '标准对齐只画在交叉注意力（输出 × 输入）上：请在“注意力”中选择它。',
  'gold.timeReady': '尚未解码：按“单步”或“播放”，每解码一行就在该行框出标准对齐。',
  'gold.timeSoFar':
    '目前的输出就是参考译文 {total} 个词（含结束符）中的前 {rows} 个，因此下面的描边和数值只覆盖已解码的行。',
  'gold.timeForced':
    '目前的输出与参考译文“{reference}”不同，因此图中是强制输入参考译文（教师强制）时、参考译文前 {rows} 个词的注意力，而不是已解码的词；上面的输出是模型自己的。',
  'gold.compare':
    '每个模型的图上都框出了参考译文“{reference}”的标准对齐（{links} 条连接）。每张图下面是该模型的 AER（越低越好）和标准注意力质量（越高越好）；标有“强制参考译文”的图，是因为模型自己的输出不同，显示的是强制输入参考译文（教师强制）时的注意力。下方的 A − B 比较的是模型自己的输出。',
  'gold.compareScore': 'AER {aer} · 标准质量 {mass}',
  'gold.compareForced': '（强制参考译文）',
  'gold.compareNone': '没有注意力：无从评分。',
};

const TABLES = { en: EN, zh: ZH };

/** Mechanism names (shown beside the equations). */
export const MECHANISM_NAMES = Object.freeze({
  en: {
    additive: 'additive (Bahdanau et al. 2015)',
    dot: 'dot (Luong et al. 2015)',
    general: 'general (Luong et al. 2015)',
    concat: 'concat (Luong et al. 2015)',
    'local-m': 'local-m (Luong et al. 2015)',
    'local-p': 'local-p (Luong et al. 2015)',
    'key-query': 'key-query',
    none: 'none',
  },
  zh: {
    additive: '加性（Bahdanau 等 2015）',
    dot: '点积（Luong 等 2015）',
    general: '一般（Luong 等 2015）',
    concat: '拼接（Luong 等 2015）',
    'local-m': '局部-m（Luong 等 2015）',
    'local-p': '局部-p（Luong 等 2015）',
    'key-query': '键-查询',
    none: '无',
  },
});

/** The model cards' held-out measures in Chinese, by card key (model-card.js metricLabel gives
 * the English from the key itself; a key not listed here shows that English label). */
const METRIC_NAMES_ZH = Object.freeze({
  accuracy: '准确率',
  count: '样本数',
  loss: '损失',
  exactMatch: '完全匹配率',
  tokenAccuracy: '词元准确率',
  'named.count': '命名格式样本数',
  'named.exactMatch': '命名格式完全匹配率',
  'variations.count': '变体样本数',
  'variations.exactMatch': '变体完全匹配率',
  'variations.tokenAccuracy': '变体词元准确率',
  bleu: 'BLEU-4',
  'alignment.aer': '对齐错误率（AER）',
  'alignment.mass': '标准对齐上的注意力质量',
  brownPerplexity: 'Brown 语料困惑度',
  'brownAgreement.accuracy': 'Brown 主谓一致准确率',
  'brownAgreement.count': 'Brown 主谓一致句对数',
  'naturalPairs.accuracy': '手写句对准确率',
  'naturalPairs.count': '手写句对数',
  'choosingPairs.accuracy': '选型用手写句对准确率',
  'choosingPairs.count': '选型用手写句对数',
  'agreement.accuracy': '主谓一致准确率',
  'agreement.count': '主谓一致句对数',
  decisiveShare: '决定性注意力占比',
  uniformShare: '均匀注意力占比',
  penalty: '冗余惩罚',
  repeatedHalf: '重复部分准确率',
  firstHalf: '前半部分准确率',
  // the rest of the shipped cards' measures (tests/js/web-model-card.test.js: every one has a name)
  decisiveWordShare: '词级决定性注意力占比',
  decisiveSentenceShare: '句级决定性注意力占比',
  uniformWordShare: '词级均匀注意力占比',
  uniformSentenceShare: '句级均匀注意力占比',
  decisiveShareBestHop: '最佳注意力跳的决定性占比',
  'brownAgreement.attractors0': 'Brown 主谓一致准确率（无干扰名词）',
  'brownAgreement.attractors0Count': 'Brown 句对数（无干扰名词）',
  'brownAgreement.attractors1': 'Brown 主谓一致准确率（1 个干扰名词）',
  'brownAgreement.attractors1Count': 'Brown 句对数（1 个干扰名词）',
  'brownAgreement.attractors2plus': 'Brown 主谓一致准确率（2 个及以上干扰名词）',
  'brownAgreement.attractors2plusCount': 'Brown 句对数（2 个及以上干扰名词）',
  'widenedAgreement.accuracy': '扩展语法主谓一致准确率',
  'widenedAgreement.count': '扩展语法句对数',
  'deeperAgreement.accuracy': '深层嵌套主谓一致准确率',
  'deeperAgreement.count': '深层嵌套句对数',
  'lstm.brownPerplexity': 'LSTM 基线 Brown 语料困惑度',
  'lstm.brownAgreement': 'LSTM 基线 Brown 主谓一致准确率',
  'lstm.attractors1': 'LSTM 基线准确率（1 个干扰名词）',
  'lstm.attractors2plus': 'LSTM 基线准确率（2 个及以上干扰名词）',
  'lstm.naturalPairs': 'LSTM 基线手写句对准确率',
  'lstm.choosingPairs': 'LSTM 基线选型用手写句对准确率',
  perLength: '每个长度的样本数',
  'worstLength.length': '最差长度',
  'worstLength.tokenAccuracy': '最差长度的词元准确率',
  repeatedCount: '重复部分词元数',
  firstCount: '前半部分词元数',
  'inductionHead.layer': '归纳头所在层',
  'inductionHead.head': '归纳头编号',
  'inductionHead.induction': '归纳头得分',
});

/** The model cards' architecture fields in Chinese (model-card.js shows the card's own key in
 * English, and the value: a string value is a config identifier, shown as code in both languages;
 * a boolean shows the name for true or, under '!key', for false). */
const ARCH_NAMES_ZH = Object.freeze({
  bidirectional: '双向',
  '!bidirectional': '单向',
  numLayers: '层数',
  embeddingSize: '嵌入维度',
  hiddenSize: '隐藏维度',
  attentionSize: '注意力维度',
  numHeads: '头数',
  feedforwardSize: '前馈维度',
  hops: '注意力跳数',
});

/** An architecture field's label in lang (model-card.js): Chinese from the table above when
 * listed, else english (model-card.js passes null, and shows the card's key as code). */
export function archName(lang, key, english) {
  return resolveLang(lang) === 'zh' && Object.hasOwn(ARCH_NAMES_ZH, key)
    ? ARCH_NAMES_ZH[key]
    : english;
}

/** A card metric's name in lang: Chinese from the table above when listed, else english (the
 * label made from the key). */
export function metricName(lang, key, english) {
  return resolveLang(lang) === 'zh' && Object.hasOwn(METRIC_NAMES_ZH, key)
    ? METRIC_NAMES_ZH[key]
    : english;
}

/** 'en' or 'zh' from any value ('zh-CN' → 'zh'); anything else gives the default. */
export function resolveLang(value) {
  if (typeof value !== 'string') return DEFAULT_LANG;
  const base = value.trim().toLowerCase().split('-')[0];
  return LANGUAGES.includes(base) ? base : DEFAULT_LANG;
}

/** The string for key in lang, with {name} placeholders replaced by String(params[name]). */
export function t(lang, key, params = {}) {
  const table = TABLES[resolveLang(lang)];
  const template = Object.hasOwn(table, key) ? table[key] : Object.hasOwn(EN, key) ? EN[key] : key;
  return template.replace(/\{(\w+)\}/g, (m, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : m,
  );
}

/**
 * A count in words, in lang: the table's `${key}#${category}` for Intl.PluralRules' category of n
 * ('one', 'other', …; Chinese has only 'other'), '#other' when that category has no entry; {n}
 * is the count. plural('en', 'count.rows', 1) → '1 row of weights'.
 */
export function plural(lang, key, n, params = {}) {
  const l = resolveLang(lang);
  const own = `${key}#${new Intl.PluralRules(l).select(n)}`;
  return t(l, Object.hasOwn(TABLES[l], own) || Object.hasOwn(EN, own) ? own : `${key}#other`, {
    ...params,
    n,
  });
}

/** A label's colon in lang: ':' in English, the full-width '：' in Chinese ("输出：", not "输出:"). */
export function colon(lang) {
  return resolveLang(lang) === 'zh' ? '：' : ':';
}

/** What each attnlab status code (AttnlabError.code, wasm/core.js) is, for a Chinese reader. */
const ERROR_KINDS_ZH = Object.freeze({
  AL_ERR_ARGUMENT: '参数无效',
  AL_ERR_SHAPE: '张量形状不符',
  AL_ERR_RANGE: '数值超出范围',
  AL_ERR_NONFINITE: '含有非有限数值（NaN 或无穷大）',
  AL_ERR_NOMEM: '内存不足',
  AL_ERR_FORMAT: '文件格式不对',
  AL_ERR_UNSUPPORTED: '不支持此功能',
  AL_ERR_OVERFLOW: '数值溢出',
});

/**
 * An error's message for a sentence in lang ({message} of model.failed, open.failed, error.run).
 * The library and the browser write their messages in English: in Chinese the sentence names the
 * kind of error (by AttnlabError's code; a browser's error otherwise) and quotes the original,
 * which names the tensor or key at fault, in “…”.
 * @param {string} lang @param {unknown} error
 */
export function errorDetail(lang, error) {
  const message = /** @type {any} */ (error)?.message ?? String(error);
  if (resolveLang(lang) !== 'zh') return message;
  const code = /** @type {any} */ (error)?.code;
  const kind =
    typeof code === 'string' && Object.hasOwn(ERROR_KINDS_ZH, code)
      ? ERROR_KINDS_ZH[code]
      : '浏览器报告的错误';
  return `${kind}（原文：“${message}”）`;
}

/** Sentences of one message, in lang: joined by a space in English, by nothing in Chinese. */
export function sentences(lang, parts) {
  return parts.filter(Boolean).join(resolveLang(lang) === 'zh' ? '' : ' ');
}

/**
 * Add the strings of a part of the page that loads on first use (web/shared/lesson-text.js), so
 * the first view does not download them: { en: { key: text }, zh: { key: text } }. A key already
 * in a table is a mistake, and throws.
 * @param {Record<string, Record<string, string>>} tables
 */
export function addStrings(tables) {
  for (const [lang, entries] of Object.entries(tables)) {
    const table = TABLES[resolveLang(lang)];
    for (const [key, text] of Object.entries(entries)) {
      if (Object.hasOwn(table, key) && table[key] !== text)
        throw new Error(`i18n: "${key}" is already in the ${lang} table`);
      table[key] = text;
    }
  }
}

/** Every key of every language (for the tests: no language may miss one). */
export function keys(lang) {
  return Object.keys(TABLES[resolveLang(lang)]);
}

/** The mechanism's display name. */
export function mechanismName(lang, attention) {
  const names = MECHANISM_NAMES[resolveLang(lang)];
  return Object.hasOwn(names, attention) ? names[attention] : String(attention);
}
