/// index.html: the full page, or one widget alone when the address names one (`?widget=<name>`,
/// which is how the standalone file is embedded).
import './styles.css';
import { showEmbed, showPage } from './page/app';

if (new URLSearchParams(location.search).has('widget')) void showEmbed();
else void showPage();
