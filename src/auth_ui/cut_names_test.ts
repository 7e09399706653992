import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameIn, shownName } from './cut_names.ts';

test('a text is read as the whole text an attribute gives only when it is that text cut short', () => {
  const whole = 'contract-test run=20261207T1100Z-ab12 scopes both';
  assert.equal(shownName('contract-test run=2026…', whole), whole, 'cut at the end');
  assert.equal(shownName('contract-test…ab12 scopes both', whole), whole, 'cut in the middle');
  assert.equal(shownName('contract-test run=2026...', ` ${whole} `), whole, 'three full stops; the attribute trimmed');
  assert.equal(shownName('…scopes both', whole), whole, 'cut at the start');
  assert.equal(shownName('nightly', 'Token details'), 'nightly', 'no ellipsis: the text is the name');
  assert.equal(shownName('nightly…', 'Token details'), 'nightly…', 'an attribute that the text does not begin');
  assert.equal(shownName('Wait… what', 'Your tokens'), 'Wait… what', 'a name that holds an ellipsis, shown whole');
  assert.equal(shownName('contract-test…nope', whole), 'contract-test…nope', 'an attribute that the text does not end');
  assert.equal(shownName('contract-test…both', 'contract-testboth'), 'contract-test…both', 'nothing left out between the parts kept');
  assert.equal(shownName('  nightly…  ', ''), '  nightly…  ', 'no attribute: the text as given');
});

test('a text beside an ellipsis of its own element is read as the name the element around both shows, when it is one', () => {
  const whole = 'nightly build for the team alpha';
  assert.equal(nameIn(['nightly build for t', ''], ['nightly build for t…', whole]), whole, 'the element around shows it cut');
  assert.equal(nameIn(['Wait… what', ''], ['nightly…Wait… what', 'Your tokens']), 'Wait… what', 'around, an unrelated title: the own text');
  assert.equal(
    nameIn(['contract-test…', whole.replace('nightly', 'contract-test')], undefined),
    whole.replace('nightly', 'contract-test'),
    'none around: the own text read whole',
  );
  assert.equal(
    nameIn(['nightly build for t', ''], ['nightly build for t', whole]),
    'nightly build for t',
    'no ellipsis around: the own text',
  );
});
