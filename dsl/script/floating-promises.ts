/**
 * Floating promises, as typescript-eslint's no-floating-promises finds them, with the compiler's
 * own type checker: an expression statement whose value is a promise nobody awaits. The types
 * allow `http.get('/x');`, but the iteration then ends before the request does, its response is
 * lost, and the next iteration's calls queue behind it: a k6 body pasted without `await` runs and
 * fails every check with no hint. A statement is not floating when it is awaited, returned,
 * assigned, passed on (`Promise.all([...])`), `void`ed, or given a rejection handler
 * (`.catch(f)`, `.then(f, g)`).
 */
import type TS from 'typescript';

/** One statement whose promise floats: where it is, and the call as written (shortened). */
export interface FloatingPromise {
  readonly node: TS.Node;
  readonly call: string;
}

/** Longest call text quoted in a message. */
const MAX_CALL_TEXT = 60;

/** Every floating promise of `file`. */
export function findFloatingPromises(
  ts: typeof TS,
  checker: TS.TypeChecker,
  file: TS.SourceFile,
): FloatingPromise[] {
  const found: FloatingPromise[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isExpressionStatement(node) && floats(ts, checker, node.expression))
      found.push({ node: node.expression, call: quote(ts, node.expression, file) });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** True when `expression`, standing alone as a statement, leaves a promise unhandled. */
function floats(ts: typeof TS, checker: TS.TypeChecker, expression: TS.Expression): boolean {
  let e = expression;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isVoidExpression(e) || ts.isAwaitExpression(e)) return false;
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.CommaToken) return floats(ts, checker, e.right);
    if (
      op === ts.SyntaxKind.AmpersandAmpersandToken ||
      op === ts.SyntaxKind.BarBarToken ||
      op === ts.SyntaxKind.QuestionQuestionToken
    )
      return floats(ts, checker, e.right);
    // Assignments and other operators: the value is kept or is not a promise.
    return false;
  }
  if (ts.isConditionalExpression(e))
    return floats(ts, checker, e.whenTrue) || floats(ts, checker, e.whenFalse);
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression)) {
    const method = e.expression.name.text;
    if (method === 'catch' && e.arguments.length >= 1) return false;
    if (method === 'then' && e.arguments.length >= 2) return false;
    if (method === 'finally') return floats(ts, checker, e.expression.expression);
  }
  return isThenable(checker, e, checker.getTypeAtLocation(e));
}

/** A type with a callable `then` (every member of a union that is not nullish). */
function isThenable(checker: TS.TypeChecker, at: TS.Node, type: TS.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((part) => {
    const then = checker.getPropertyOfType(part, 'then');
    return (
      then !== undefined &&
      checker.getTypeOfSymbolAtLocation(then, at).getCallSignatures().length > 0
    );
  });
}

/** The statement's text on one line, shortened: `http.get('/x')`. */
function quote(ts: typeof TS, node: TS.Node, file: TS.SourceFile): string {
  const text = node.getText(file).replace(/\s+/g, ' ');
  if (text.length <= MAX_CALL_TEXT) return text;
  const callee = ts.isCallExpression(node) ? node.expression.getText(file) : undefined;
  return callee !== undefined && callee.length < MAX_CALL_TEXT
    ? `${callee}(…)`
    : `${text.slice(0, MAX_CALL_TEXT - 1)}…`;
}
