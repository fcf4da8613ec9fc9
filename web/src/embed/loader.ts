/// dist/kernel-lens.js, the one script a host page includes (a few kB):
///   <script type="module" src="https://…/kernel-lens.js"></script>
///   <kernel-lens-figure widget="lookup" h="0.6" q="3.5"></kernel-lens-figure>
///   <iframe data-kernel-lens src="https://…/embed.html?widget=lookup" …></iframe>
/// It defines <kernel-lens-figure> (the rest of the site's code loads only when one is on the
/// page) and sizes every Kernel Lens iframe from its height messages.
import { defineFigureElement } from './element';
import { sizeFrames } from './frames';

sizeFrames();
defineFigureElement();
