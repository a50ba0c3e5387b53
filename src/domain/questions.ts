import type { FieldError } from './errors.js';

/** Contract §10: what a booking page asks the guest, per event type. */
export const QUESTION_TYPES = [
  'text',
  'textarea',
  'email',
  'phone',
  'number',
  'select',
  'multiselect',
  'checkbox',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const QUESTION_ID_PATTERN = '^[a-z0-9_-]{1,40}$';
export const MAX_QUESTIONS = 20;
export const MAX_OPTIONS = 50;
/** Longest answer to a `text` (and `email`, `phone`) question, and to a `textarea` one. */
export const MAX_TEXT_ANSWER = 500;
export const MAX_TEXTAREA_ANSWER = 5_000;

export interface Question {
  id: string;
  label: string;
  type: QuestionType;
  required: boolean;
  /** The choices of a `select` or `multiselect` question; null for the other types. */
  options: string[] | null;
}

export type AnswerValue = string | number | boolean | string[];
/** Question id → answer. A question without an answer is absent. */
export type Answers = Record<string, AnswerValue>;

/** Whether the type's answers are chosen from `options`. */
export function hasOptions(type: QuestionType): boolean {
  return type === 'select' || type === 'multiselect';
}
// Deliberately loose, as browsers' own `type=email` check: one @, something either side, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().\/-]{3,40}$/;

/**
 * What the schema cannot say about a question list: ids unique, options where (and only where)
 * the type has them, each option once. Fields are paths such as `questions[2].options`.
 */
export function questionListErrors(questions: readonly Question[], field = 'questions'): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  questions.forEach((question, i) => {
    const at = `${field}[${i}]`;
    if (seen.has(question.id)) errors.push({ field: `${at}.id`, message: `is used by an earlier question` });
    seen.add(question.id);
    if (hasOptions(question.type)) {
      if (question.options === null || question.options.length === 0)
        errors.push({ field: `${at}.options`, message: `is required for a ${question.type} question` });
      else if (new Set(question.options).size !== question.options.length)
        errors.push({ field: `${at}.options`, message: 'must not list an option twice' });
    } else if (question.options !== null) {
      errors.push({ field: `${at}.options`, message: `is only for select and multiselect questions` });
    }
  });
  return errors;
}

/** Each answer checked against its question; one entry per failing answer, field `answers.<id>`. */
export function answerErrors(questions: readonly Question[], answers: Answers): FieldError[] {
  const errors: FieldError[] = [];
  const byId = new Map(questions.map((question) => [question.id, question]));
  for (const id of Object.keys(answers)) {
    if (!byId.has(id)) errors.push({ field: `answers.${id}`, message: 'is not a question of this event type' });
  }
  for (const question of questions) {
    const answer = Object.hasOwn(answers, question.id) ? answers[question.id] : undefined;
    const field = `answers.${question.id}`;
    if (answer === undefined || answer === '' || (Array.isArray(answer) && answer.length === 0)) {
      if (question.required) errors.push({ field, message: 'is required', code: 'required' });
    } else if (question.type === 'checkbox' && question.required && answer === false) {
      errors.push({ field, message: 'must be checked', code: 'required' });
    } else {
      const message = answerProblem(question, answer);
      if (message !== null) errors.push({ field, message, code: 'invalid' });
    }
  }
  return errors;
}

/** What is wrong with a given answer; null when nothing is. */
function answerProblem(question: Question, answer: AnswerValue): string | null {
  switch (question.type) {
    case 'text':
    case 'textarea': {
      const max = question.type === 'text' ? MAX_TEXT_ANSWER : MAX_TEXTAREA_ANSWER;
      if (typeof answer !== 'string') return 'must be text';
      return answer.length > max ? `must be at most ${max} characters` : null;
    }
    case 'email':
      return typeof answer === 'string' && answer.length <= MAX_TEXT_ANSWER && EMAIL.test(answer)
        ? null
        : 'must be an e-mail address';
    case 'phone':
      return typeof answer === 'string' && PHONE.test(answer) && /[0-9].*[0-9].*[0-9]/.test(answer)
        ? null
        : 'must be a phone number';
    case 'number':
      return typeof answer === 'number' && Number.isFinite(answer) ? null : 'must be a number';
    case 'checkbox':
      return typeof answer === 'boolean' ? null : 'must be true or false';
    case 'select':
      return typeof answer === 'string' && question.options!.includes(answer) ? null : 'must be one of the options';
    case 'multiselect':
      if (!Array.isArray(answer) || answer.some((choice) => !question.options!.includes(choice)))
        return 'must be a list of the options';
      return new Set(answer).size === answer.length ? null : 'must not choose an option twice';
  }
}
