"""Which memories does a deprecated string reach? A matcher-only demo (no Chroma, no model)."""

from nowline.matchers import Matcher

MEMORIES = [
    "Metalcraftai/UFO — PR #1705 passed review.",
    "Subscribed to #ufo-dev for metalcraftai/ufo announcements.",
    "Clone with: git clone https://github.com/metalcraftai/ufo.git",
    "metalcraftai/ufo-hosted deploys on Fridays.",
    "ufo-ai/ufo — release 0.9 tagged.",
]


def main() -> None:
    matcher = Matcher([("metalcraftai/ufo", "correction-1")])
    print('deprecates ["metalcraftai/ufo"] reaches:')
    for memory in MEMORIES:
        matches = matcher.find(memory)
        mark = "reached " if matches else "untouched"
        spans = ", ".join(f"[{m.start}:{m.end}] {memory[m.start : m.end]!r}" for m in matches)
        print(f"  {mark}  {memory}" + (f"   <- {spans}" if spans else ""))


if __name__ == "__main__":
    main()
