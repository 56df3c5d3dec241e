#!/usr/bin/env python3
"""Every relative link in the built book (mdbook build docs -> target/book) leads to a page
that exists, and to an element id on it when it names one. Prints `book links: N passed` or
the dead links, and exits 1 when any is dead. Usage: book_links.py target/book"""
import html.parser
import os
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if key in a and a[key]:
                self.links.append(a[key])


def main(book):
    pages = {}
    for d, _, files in os.walk(book):
        for f in files:
            if f.endswith(".html"):
                p = Page()
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    p.feed(fh.read())
                pages[os.path.normpath(os.path.join(d, f))] = p
    dead, checked = [], 0
    for path, page in sorted(pages.items()):
        if os.path.basename(path) in ("print.html", "404.html", "toc.html"):
            continue
        for link in page.links:
            u = urllib.parse.urlparse(link)
            if u.scheme or link.startswith("//") or link.startswith("mailto:"):
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), urllib.parse.unquote(u.path))) if u.path else path
            checked += 1
            if not os.path.exists(target):
                dead.append(f"{os.path.relpath(path, book)}: {link}")
                continue
            if u.fragment and target.endswith(".html"):
                t = pages.get(target)
                if t is not None and u.fragment not in t.ids:
                    dead.append(f"{os.path.relpath(path, book)}: {link} (no such id)")
    if dead:
        print("dead links in the book:\n" + "\n".join(dead))
        print(f"book links: {checked - len(dead)} passed, {len(dead)} failed")
        return 1
    print(f"book links: {checked} passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "target/book"))
