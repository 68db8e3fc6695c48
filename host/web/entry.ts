// The web app's script (dist/web/app.js, a classic script so the page opens from file:// too).
import { mountApp } from './app';

void mountApp(document);
