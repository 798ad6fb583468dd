"""A well-behaved submission: reads input.txt, writes output.txt, prints one line."""

if __name__ == "__main__":
    with open("input.txt", encoding="utf-8") as source:
        numbers = [int(word) for word in source.read().split()]
    with open("output.txt", "w", encoding="utf-8") as out:
        out.write(f"sum = {sum(numbers)}\n")
    print(f"read {len(numbers)} numbers")
