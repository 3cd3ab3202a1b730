// i18n/en.js: the English strings of the page and its views, by key (t('en', key) in i18n.js).
//
// Holds: one table, English being the language every key must have (a key missing from another
// language falls back to it). Deliberately holds no lookup (i18n.js), the model cards' and model
// files' strings (i18n/files.js) and the names of mechanisms and card fields (i18n/names.js).

export const EN = {
  'lang.name': 'English',
  'lang.label': 'Language',
  'view.label': 'View',
  'view.alignment': 'Alignment',
  'view.time': 'Over time',
  'view.compare': 'Compare',
  'view.playground': 'SDPA playground',
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
    'Attention pooling (Zhou et al. 2016): αₜ = softmax(u_wᵀ tanh(hₜ)) over the words t, then the classifier reads r = Σₜ αₜ hₜ.',
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
    'Penalty P = ‖AAᵀ − I‖²_F = {value} ({r} hops; 0 when every hop puts all its weight on a different word).',
  'pooling.downloadAll': 'Download every number (JSON)',
  'pooling.say': 'Word {index} “{word}”: {value}',
  'pooling.sayHan': 'Sentence {n} (β {sentence}), word {index} “{word}”: {value}',
  'pooling.sayHop': 'Hop {n}, word {index} “{word}”: {value}',
  'status.pooling': '{words}, {rows} in {ms} ms.',
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
  'why.label': 'why?',
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
  'explain.score': 'Score eₜᵢ − maxⱼ eₜⱼ',
  'explain.exp': 'exp(eₜᵢ − max)',
  'explain.sum': 'Σⱼ exp(eₜⱼ − max)',
  'explain.softmax': 'softmax',
  'explain.gauss': 'Gaussian exp(−(i − pₜ)² / 2σ²)',
  'explain.weight': 'Weight αₜᵢ',
  'explain.rank': 'Rank in row',
  'explain.rowSum': 'Row sum Σᵢ αₜᵢ',
  'explain.position': 'Predicted position pₜ',
  'explain.window': 'Window pₜ ± D',
  'explain.outside': 'outside the window: the weight is 0 by construction',
  'explain.underflow': '−∞ (the weight underflowed to 0)',
  'explain.none':
    'This model has no attention: every weight is 0 and the decoder sees only its own state.',
  'explain.honest':
    "This map holds the weights, not the scores. Softmax ignores a constant added to every score, so the score is shown relative to the row's largest: eₜᵢ − maxⱼ eₜⱼ = ln αₜᵢ − ln maxⱼ αₜⱼ (exact up to float32 rounding). The raw scores need the decoder’s state, which this view does not read.",
  'explain.honestLocal':
    'For local attention the softmax is taken inside the window and then multiplied by the Gaussian, so softmax = αₜᵢ / Gaussian and the score is recovered from that.',
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
  // Issue 29 §3, embeds that keep their promises: the exports and the link in a sandboxed iframe
  // (heatmap-fallback.js, demo-chrome.js), and the page's Embed this view dialog (embed-dialog.js).
  'export.blocked':
    'Downloads are refused here: this view is in an iframe whose sandbox attribute lacks allow-downloads. The {kind} is below instead; for downloads, the page that embeds this view must add allow-downloads to the iframe’s sandbox.',
  'export.maybeBlocked':
    'This view is in a sandboxed iframe, where the browser saves {file} only if the iframe’s sandbox attribute includes allow-downloads. If no file arrived, copy the {kind} below instead.',
  'export.fallback': 'Export without a download',
  'export.text': 'The {kind} file’s text',
  'export.image': 'The PNG file, {name}',
  'export.copy': 'Copy {kind}',
  'export.copied': 'Copied to the clipboard.',
  'export.copyManual':
    'The browser refused to copy: the text is selected; press Ctrl+C (⌘C on a Mac) to copy it.',
  'export.imageManual':
    'The browser refused to copy the image: right-click it (or press and hold) to copy or save it.',
  'export.close': 'Close',
  'link.blocked':
    'The browser refused to open a new window: this view is in an iframe whose sandbox attribute lacks allow-popups (with allow-popups-to-escape-sandbox as well, the page it opens can download). The link, to copy:',
  'link.copyLink': 'Copy link',
  'embed.title': 'Embed this view',
  'embed.lede':
    'Paste either code into a page: both show this view as it is now (view, model, input, layer, head, language).',
  'embed.iframe': 'An iframe: any page or LMS that accepts HTML',
  'embed.iframeNote':
    'In its sandbox, allow-scripts runs the view; allow-downloads lets the PNG, SVG, CSV and JSON buttons save files; allow-popups and allow-popups-to-escape-sandbox let “Link to this view” open the whole page. Without them the view says what is refused and offers the data to copy.',
  'embed.element': 'The element: a page that may run scripts',
  'embed.elementNote':
    'One script for any number of attn-demo elements. The server must send Access-Control-Allow-Origin for the files it loads, or the element says so in its box.',
  'embed.copyIframe': 'Copy the iframe code',
  'embed.copyElement': 'Copy the element code',
  'embed.close': 'Close',
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
  'page.labTitle': 'The attention lab: design, train and compare two models',
  'page.labLede':
    'Pick a task, build model A and model B, and train both at once in background workers on the same data: watch their loss, held-out accuracy, accuracy by input length and attention side by side.',
  'page.labBadge': 'The lab is training in the background',
  'page.labFailed': 'The lab could not be loaded: {message}',
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
    'Random queries Q [n × dₖ], keys K [m × dₖ] and values V [m × dₖ] from a seeded generator; the heatmap shows softmax(Q Kᵀ · scale), the weight each query (row) gives each key (column).',
  'sdpa.queries': 'Queries',
  'sdpa.keys': 'Keys',
  'sdpa.headSize': 'Head size',
  'sdpa.seed': 'Seed',
  'sdpa.reseed': 'New seed',
  'sdpa.causal': 'Causal mask (query i sees keys j ≤ i)',
  'sdpa.scale': 'Scale (inverse temperature)',
  'sdpa.scaleAuto': 'Use 1/√dₖ',
  'sdpa.heatmap': 'Attention weights (query × key)',
  'sdpa.readoutPrompt':
    'Click a cell, or focus the heatmap and use the arrow keys, to read a weight.',
  'sdpa.readout': 'Query {row} gives key {col} the weight {value}.',
  'sdpa.info': '{n} × {m} weights, dₖ = {d}, scale {scale}; computed in {ms} ms.',
  'sdpa.infoCausal': '{n} × {m} weights, dₖ = {d}, scale {scale}, causal; computed in {ms} ms.',
  'sdpa.error': 'attnlab could not compute this view ({code}): {message}',
  'sdpa.shapeError': 'attnlab returned weights of shape [{shape}], expected [{n}, {m}].',
  'heatmap.defaultLabel': 'Heatmap',
  'heatmap.size': '{label}, {rows} by {cols}',
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
  'reading.about.lstmn':
    'LSTMN (Cheng, Dong & Lapata 2016): at word t the cell reads a weighted sum of its earlier hidden and memory states; the weights αₜ cover the words before t.',
  'reading.about.self-attention-rnn':
    'Self-attention RNN: after word t the cell attends over its states so far (the words up to t, itself included) with weights αₜ, and carries their weighted sum to the next word.',
  'reading.about.lstm':
    'Plain LSTM baseline: it has no attention, so there are no arcs and no weights here; only the next-word probabilities.',
  'reading.readAs': 'Read as:',
  'reading.unknown': 'Not in the model’s vocabulary, read as {unk}: {words}',
  'input.hintNormalized':
    'Up to {max} characters, read as the model was trained: lowercased, punctuation and n’t, ’s … split off. Words it does not know become {unk} and are listed below.',
  'input.unknown': 'Not in the model’s vocabulary, read as {unk}: {words}',
  'examples.label': 'Examples',
  'examples.choose': 'Choose an example…',
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
  'reading.leastExpected':
    'Least expected: “{word}” (p = {p}), {share} of the surprisal (−ln p) the perplexity averages.',
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
  'view.mechanism': 'Mechanism',
  'page.mechanismTitle': 'The mechanism, step by step',
  'page.mechanismLede':
    'The lecture’s diagram, drawn from the model’s real numbers for your input: step through time, point at any part.',
  'status.mechanism': '{n} steps drawn from the model’s states in {ms} ms.',
  'mech.unsupported': 'The mechanism view cannot draw {name}.',
  'mech.noStates': 'This model’s intermediate states are not available: {message}',
  'mech.prev': 'Previous step',
  'mech.next': 'Next step',
  'mech.slider': 'Step',
  'mech.keys': '← and → move one step, Home and End to the first and last; Tab reaches every part.',
  'mech.equations': 'Equations, with this step’s numbers',
  'mech.layer': 'Layer',
  'mech.head': 'Head',
  'mech.position': 'Step {t} of {n}: “{label}”',
  'mech.point': 'Point at, tap or Tab to any part to read its numbers.',
  'mech.row.output': 'output',
  'mech.row.score': 'score e',
  'mech.row.weight': 'weight α',
  'mech.eq.queryBahdanau': 'the query is the previous state sₜ₋₁',
  'mech.eq.queryLuong': 'the query is the current state sₜ',
  'mech.seq2seq.label': 'Encoder–decoder at output step {t} of {n}',
  'mech.seq2seq.bottleneck':
    'No attention: only h{m}, the last encoder state, crosses to the decoder (s₀): the bottleneck.',
  'mech.seq2seq.say':
    'Step {t} of {n}: the decoder emits “{token}” (p = {p}), attending most to “{src}” (α = {w}).',
  'mech.seq2seq.sayNone':
    'Step {t} of {n}: the decoder emits “{token}” (p = {p}) from its own state alone.',
  'mech.memory.label': 'Memory RNN reading word {t} of {n}, “{word}”',
  'mech.memory.next': 'probability of the next word “{word}”: {p}',
  'mech.memory.cell.sarnn': 'the cell: hₜ = tanh(W[xₜ; cₜ₋₁] + b), cₜ₋₁ in place of hₜ₋₁',
  'mech.memory.cell.lstmn': 'the LSTMN cell: an LSTM reading h̃ₜ and c̃ₜ in place of hₜ₋₁ and cₜ₋₁',
  'mech.memory.cell.lstm': 'a plain LSTM cell (no attention)',
  'mech.memory.noAttention': 'A plain LSTM: no attention over earlier words.',
  'mech.memory.first': 'The first word: nothing earlier to attend to (c₀ = 0).',
  'mech.memory.say': 'Word {t}, “{word}”: the summary it reads weighs “{top}” most (α = {w}).',
  'mech.memory.sayNone': 'Word {t}, “{word}”: nothing earlier is attended to.',
  'mech.classifier.label.attention': 'Attention pooling, word {t}',
  'mech.classifier.label.han': 'Hierarchical attention, sentence {t}',
  'mech.classifier.label.structured': 'Structured self-attention, hop {t}',
  'mech.classifier.say': 'Word {t}, “{word}”, gets α = {w} of r; the label is {label} (p = {p}).',
  'mech.classifier.sayHan': 'Sentence {j} gets β = {w} of r; the label is {label} (p = {p}).',
  'mech.classifier.sayHop':
    'Hop {k} looks most at “{word}” (α = {w}); the penalty of all hops is P = {penalty}.',
  'mech.han.sentence': 'sentence {j}: β = {w}',
  'mech.han.count': '{m} sentences → r',
  'mech.transformer.label': 'Transformer layer {layer}, head {head}, query {t} of {n}',
  'mech.transformer.say':
    'Layer {layer}, head {head} ({kind}): query “{token}” attends most to “{key}” (α = {w}).',
};
