// Placeholder: this module is built by its own issue.
