# Sphinx + MyST recipe (what Jupyter Book builds on). In a Jupyter Book, the same setting goes
# into _config.yml under sphinx: config: html_js_files.
project = 'Course notes (Sphinx + MyST)'
extensions = ['myst_parser']
html_theme = 'sphinx_book_theme'
html_js_files = [('http://kernel-lens.test/kernel-lens.js', {'type': 'module'})]
exclude_patterns = ['_build']
