"""A synthetic pack of any size: mixed English, Russian and Chinese summaries and bodies, typed links.

Deterministic for a seed, so two benchmark runs ingest the same files.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from graphrag.config import Settings
from graphrag.embedding import Embedder
from graphrag.stores.graph import GraphStore
from ingest.pipeline import ingest

PACK = "bench-synthetic"

WORDS = {
    "en": "graph retrieval vector index query agent memory pack entity relation summary budget latency "
    "mission rocket engine orbit lunar module crew launch stage fuel design bureau programme".split(),
    "ru": "граф поиск вектор индекс запрос агент память пакет сущность связь резюме бюджет задержка "
    "миссия ракета двигатель орбита лунный модуль экипаж пуск ступень топливо проект бюро".split(),
    "zh": "图 检索 向量 索引 查询 代理 记忆 知识包 实体 关系 摘要 预算 延迟 任务 火箭 发动机 轨道 月球 "
    "模块 乘员 发射 级 燃料 设计 局 计划".split(),
}
KINDS = ["concept", "method", "mission", "person", "tool", "failure-mode"]


def relation_names(count: int) -> list[str]:
    base = ["depends_on", "part_of", "uses", "relates_to", "produces", "precedes", "refines", "supports"]
    return (base + [f"relation_{i}" for i in range(len(base), count)])[:count]


def entity_id(index: int) -> str:
    return f"BENCH.{index:06d}"


def summary(rng: random.Random, language: str) -> str:
    """A summary of 12 to 30 words of ``language``, as every synthetic entity has."""
    return ("" if language == "zh" else " ").join(rng.choice(WORDS[language]) for _ in range(rng.randint(12, 30)))


def write_synthetic_pack(
    root: Path, entities: int, degree: int = 3, relation_types: int = 6, seed: int = 42, sections: int = 3
) -> None:
    """``entities`` files under ``root`` (100 per folder), each with ``degree`` typed links and a body of
    ``sections`` sections of two paragraphs (about 1.5 kB of text: several passages per entity)."""
    rng = random.Random(seed)
    relations = relation_names(relation_types)
    root.mkdir(parents=True, exist_ok=True)
    (root / "pack.yaml").write_text(f"id: bench-synthetic\ntitle: Synthetic pack of {entities} entities\n")
    languages = list(WORDS)
    for index in range(entities):
        language = languages[index % len(languages)]
        words = WORDS[language]
        sep = "" if language == "zh" else " "
        title = sep.join(rng.choice(words) for _ in range(3)) + f" {index}"
        text = summary(rng, language)
        lines = [
            "---",
            f"id: {entity_id(index)}",
            f"kind: {KINDS[index % len(KINDS)]}",
            f'title: "{title}"',
            f'summary: "{text}"',
            f"language: {language}",
            "related:",
        ]
        targets: dict[str, list[str]] = {}
        for _ in range(degree):
            targets.setdefault(rng.choice(relations), []).append(entity_id(rng.randrange(entities)))
        lines += [f"  {name}: [{', '.join(ids)}]" for name, ids in targets.items()]
        lines += ["---", "", f"# {title}", "", text, ""]
        for section in range(sections):
            lines += [f"## {rng.choice(words)} {section + 1}", ""]
            for _ in range(2):
                lines += [sep.join(rng.choice(words) for _ in range(rng.randint(40, 80))), ""]
        folder = root / f"part-{index // 100:04d}"
        folder.mkdir(exist_ok=True)
        (folder / f"{entity_id(index)}.md").write_text("\n".join(lines), encoding="utf-8")


def ingested(
    work: Path,
    entities: int,
    degree: int,
    settings: Settings,
    graph: GraphStore,
    embedder: Embedder,
    keep: bool,
    sections: int = 3,
) -> None:
    """Write the synthetic pack under ``work`` and ingest it cold, then again with no change (the issue's goal:
    at most 5% of cold), unless a kept earlier run already did (its marker file names the size), so a bench
    can measure a large store again without ingesting it again."""
    size = f"{entities}-{degree}{'' if sections == 3 else f'-{sections}'}"
    done, written = work / f"ingested-{size}", work / f"written-{size}"
    if done.exists():
        print(f"{entities} entities already ingested under {work}")
        return
    graph.run_auto_commit("bench_cleanup", pack=PACK, prefix="BENCH.")
    if not written.exists():  # a million files take a while to write: a run stopped during its ingest keeps them
        started = time.perf_counter()
        write_synthetic_pack(work / "pack", entities, degree, sections=sections)
        print(f"{entities} entities written in {time.perf_counter() - started:.1f}s", flush=True)
        written.touch()
    started = time.perf_counter()
    ingest([work / "pack"], settings, embedder=embedder)
    cold = time.perf_counter() - started
    print(f"{entities} entities ingested in {cold:.1f}s ({embedder.id})", flush=True)
    started = time.perf_counter()
    report = ingest([work / "pack"], settings, embedder=embedder)
    same = time.perf_counter() - started
    print(f"no-change re-ingest {same:.1f}s = {same / cold:.1%} of cold ({report.unchanged} unchanged)", flush=True)
    if keep:
        done.touch()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path)
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--degree", type=int, default=3)
    parser.add_argument("--relation-types", type=int, default=6)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--sections", type=int, default=3)
    args = parser.parse_args()
    write_synthetic_pack(args.root, args.entities, args.degree, args.relation_types, args.seed, args.sections)


if __name__ == "__main__":
    main()
