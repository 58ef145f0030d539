"""The claims of the papers, a package per paper and a module per numbered statement."""
