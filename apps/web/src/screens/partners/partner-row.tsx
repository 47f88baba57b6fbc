import { useTranslation } from 'react-i18next';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { Avatar, ButtonRow, Row } from '../../ui/list-row';

type PartnerLike = {
  uid: number;
  username: string | null;
  firstName: string;
  line: number;
  licenseLevel: string;
  licenseActive: boolean;
  registeredAt: string;
  teamSize?: number;
};

/** One partner in a list; with `onOpen` the row is a button that opens their profile. */
export const PartnerRow = ({
  partner,
  extra,
  onOpen,
}: {
  partner: PartnerLike;
  extra?: string | undefined;
  onOpen?: (uid: number) => void;
}) => {
  const { t } = useTranslation();
  const format = useFormat();
  const content = {
    start: <Avatar name={partner.firstName} />,
    title: partner.username ? `${partner.firstName} · @${partner.username}` : partner.firstName,
    subtitle: [
      t('partners.line', { line: partner.line }),
      t('myPartners.registered', { date: format.date(partner.registeredAt) }),
      partner.teamSize === undefined ? undefined : t('myPartners.team', { count: partner.teamSize }),
      extra,
    ]
      .filter(Boolean)
      .join(' · '),
    end: <Badge tone={partner.licenseActive ? 'accent' : 'neutral'}>{partner.licenseLevel}</Badge>,
  };
  return (
    <div data-partner={partner.uid} data-line={partner.line}>
      {onOpen ? <ButtonRow {...content} chevron onClick={() => onOpen(partner.uid)} /> : <Row {...content} />}
    </div>
  );
};
