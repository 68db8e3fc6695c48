// The web app's script (dist/web/app.js, a classic script so the page opens from file:// too).
import { mountApp } from './app';

performance.mark('krieg-app'); // bench/web.ts: the page's script begins
void mountApp(document);
