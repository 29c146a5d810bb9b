"""MkDocs hooks of the documentation site (mkdocs.yml): the command line's reference page,
made from the parsers at each build (tools/cli_reference.py), and the docstrings' Sphinx roles
shown as code."""

from __future__ import annotations

import re

# MkDocs puts this file's directory on the path while it loads it.
import cli_reference
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

#: A Sphinx role the docstrings use (":class:`Deal`"), as Markdown renders it.
ROLE = re.compile(r":(?:class|meth|func|data|attr|mod|exc|obj):<code>~?")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the command line's reference, generated, to the site's files."""
    files.append(File.generated(config, cli_reference.PAGE, content=cli_reference.markdown()))
    return files


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The docstrings' roles (``:class:`Deal```) as plain code (``Deal``)."""
    return ROLE.sub("<code>", html)
