import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CourseChoice } from './course-choice';

function Harness({ courses, error }: { courses: Array<{ id: number; name: string }>; error?: string }) {
  const [ids, setIds] = useState<number[]>([2]);
  return (
    <>
      <CourseChoice idPrefix="f" legend="Kurse" empty="Noch keine Kurse." courses={courses} selected={ids} onChange={setIds} error={error} />
      <output>{ids.join(',')}</output>
    </>
  );
}

describe('CourseChoice (the student and exercise forms)', () => {
  it('ticks and unticks courses, and names the server’s error on the fieldset', async () => {
    render(<Harness courses={[{ id: 1, name: 'Ney' }, { id: 2, name: 'Ud' }]} error="Unbekannter Kurs." />);
    const group = screen.getByRole('group', { name: 'Kurse' });
    expect(group).toHaveAccessibleDescription('Unbekannter Kurs.');
    expect(screen.getByRole('checkbox', { name: 'Ud' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Ney' }));
    expect(screen.getByRole('status')).toHaveTextContent('2,1');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Ud' }));
    expect(screen.getByRole('status')).toHaveTextContent(/^1$/);
  });

  it('says so when there is no course', () => {
    render(<Harness courses={[]} />);
    expect(screen.getByText('Noch keine Kurse.')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
