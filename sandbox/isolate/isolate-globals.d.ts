// What the isolate's V8 has beyond the project's lib (ES2023): ES2024's String methods.
interface String {
  toWellFormed(): string;
}
