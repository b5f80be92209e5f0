"""`python -m lockstep.cards check | new <id> [--related <id>]` for the site in ./mkdocs.yml."""

from __future__ import annotations

import argparse
import sys

from lockstep.cards.deck import ID, Deck
from lockstep.config import Site


def main(argv: list[str]) -> int:
    """Check the deck, or write a new card's pages in every language from the template."""
    parser = argparse.ArgumentParser(prog="python -m lockstep.cards")
    parser.add_argument("--config", default="mkdocs.yml")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="run the checks the build and the tests run")
    new = sub.add_parser("new", help="write docs/<lang>/<cards>/<id>.md for every language")
    new.add_argument("id")
    new.add_argument("--related", help="an existing card to link (default: the first card)")
    args = parser.parse_args(argv)
    site = Site.load(args.config)
    deck = Deck(site)
    if args.command == "check":
        problems = deck.check()
        print("\n".join(problems) or "all cards follow the format")
        return 1 if problems else 0
    if not ID.match(args.id):
        parser.error(f"id {args.id!r} must be lowercase words joined by '-'")
    related = args.related or deck.cards(site.languages.default)[0].id
    paths = [deck.folder(lang) / f"{args.id}.md" for lang in site.languages]
    if any(p.exists() for p in paths):
        print(f"refusing to overwrite {[str(p) for p in paths if p.exists()]}")
        return 1
    for lang, path in zip(site.languages, paths, strict=True):
        path.write_text(deck.template(args.id, lang, related), encoding="utf-8")
        print(f"wrote {path.relative_to(site.root)}")
    print(f"now add `- {deck.options.folder}/{args.id}.md` to the cards in `nav:` of mkdocs.yml")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
