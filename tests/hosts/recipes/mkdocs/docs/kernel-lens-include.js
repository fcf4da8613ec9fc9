// Loads Kernel Lens's module script from a classic script (MkDocs before 1.5).
(() => {
  const script = document.createElement('script');
  script.type = 'module';
  script.src = 'http://kernel-lens.test/kernel-lens.js';
  document.head.append(script);
})();
