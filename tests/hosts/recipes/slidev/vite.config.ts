// Slidev's Vue is told that kernel-lens-* tags are custom elements (otherwise Vue warns and drops them).
import { defineConfig } from 'vite';

export default defineConfig({
  slidev: {
    vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('kernel-lens-') } } },
  },
});
