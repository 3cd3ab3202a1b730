// webkit.test.js: the smoke suite (smoke.js) in WebKit, the engine of Safari: Debian's WebKitGTK
// MiniBrowser driven by WebKitWebDriver over plain W3C WebDriver (harness.js), on an X display.
// `make test-webkit` (which runs it under xvfb-run -a).

import { smokeSuite } from './smoke.js';

smokeSuite('webkit');
