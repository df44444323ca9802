import { Link } from '../router';
import { Empty, PageTitle } from '../ui/ui';

export function NotFound() {
  return (
    <>
      <PageTitle>Page not found</PageTitle>
      <Empty title="Nothing lives at this address">
        <p>It may have moved. Your templates and keys are one click away.</p>
        <Link className="btn primary" to="/dashboard/templates">Go to templates</Link>
      </Empty>
    </>
  );
}
