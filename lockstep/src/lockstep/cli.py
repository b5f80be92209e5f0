"""The `lockstep` command (also `python -m lockstep`):

    lockstep new FOLDER [--languages en,zh]    a new site that builds and tests green
    lockstep card new ID [--related ID]        a new interview card in every language
    lockstep card check                        the deck's checks, as the build runs them
    lockstep handbook SITE_DIR [--page P]      a built page as one HTML file and a PDF

Every command but `new` works on the site whose mkdocs.yml is given by --config (default:
./mkdocs.yml).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from lockstep.errors import BuildError


def main(argv: list[str] | None = None) -> int:
    """Run one command; a BuildError is printed as its lines, with exit status 1."""
    parser = argparse.ArgumentParser(prog="lockstep", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", type=Path, default=Path("mkdocs.yml"))
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="write a new bilingual site into FOLDER")
    new.add_argument("folder", type=Path)
    new.add_argument("--languages", default="en,zh", help="codes, the default first")
    card = sub.add_parser("card", help="interview cards").add_subparsers(dest="action")
    card.required = True
    card.add_parser("check", help="run the checks the build and the tests run")
    new_card = card.add_parser("new", help="write <cards>/<id>.md in every language")
    new_card.add_argument("id")
    new_card.add_argument("--related", help="an existing card to link (default: the first)")
    book = sub.add_parser("handbook", help="a built page as one HTML file and a PDF")
    book.add_argument("site_dir", type=Path)
    book.add_argument("--page", default="cards/handbook/")
    book.add_argument("--name", default="handbook")
    args = parser.parse_args(argv)
    try:
        if args.command == "new":
            return _new(args)
        if args.command == "card":
            return _card(args)
        return _handbook(args)
    except BuildError as error:
        print(error, file=sys.stderr)
        return 1


def _site(args: argparse.Namespace):
    from lockstep.mkdocs.config_file import load_site

    return load_site(args.config.resolve())


def _new(args: argparse.Namespace) -> int:
    from lockstep import scaffold

    languages = [code.strip() for code in args.languages.split(",") if code.strip()]
    for path in scaffold.write(args.folder, languages):
        print(f"wrote {path}")
    print(f"then: cd {args.folder} && mkdocs build --strict && pytest")
    return 0


def _card(args: argparse.Namespace) -> int:
    from lockstep.cards.deck import ID, Deck

    site = _site(args)
    deck = Deck(site)
    if args.action == "check":
        problems = deck.check()
        print("\n".join(problems) or "all cards follow the format")
        return 1 if problems else 0
    if not ID.match(args.id):
        raise BuildError(f"card id {args.id!r} must be lowercase words joined by '-'")
    related = args.related or deck.cards(site.languages.default)[0].id
    paths = [deck.folder(lang) / f"{args.id}.md" for lang in site.languages]
    if any(p.exists() for p in paths):
        raise BuildError(f"refusing to overwrite {[str(p) for p in paths if p.exists()]}")
    for lang, path in zip(site.languages, paths, strict=True):
        path.write_text(deck.template(args.id, lang, related), encoding="utf-8")
        print(f"wrote {path.relative_to(site.root)}")
    print(f"now add `- {deck.options.folder}/{args.id}.md` to the cards in `nav:` of mkdocs.yml")
    return 0


def _handbook(args: argparse.Namespace) -> int:
    from lockstep.single_file import export

    published = (os.environ.get("SITE_URL") or "http://127.0.0.1:8000/").rstrip("/") + "/"
    for path in export(_site(args), args.site_dir, args.page, args.name, published):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
