import { useTranslation } from 'react-i18next';
import { useFormat } from '../../format/use-format';
import { Badge } from '../../ui/badge';
import { Avatar, Row } from '../../ui/list-row';

type PartnerLike = {
  uid: number;
  username: string | null;
  firstName: string;
  line: number;
  licenseLevel: string;
  licenseActive: boolean;
  registeredAt: string;
  teamSize: number;
};

export const PartnerRow = ({ partner, extra }: { partner: PartnerLike; extra?: string }) => {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Row
      start={<Avatar name={partner.firstName} />}
      title={partner.username ? `${partner.firstName} · @${partner.username}` : partner.firstName}
      subtitle={[
        t('partners.line', { line: partner.line }),
        t('myPartners.registered', { date: format.date(partner.registeredAt) }),
        t('myPartners.team', { count: partner.teamSize }),
        extra,
      ]
        .filter(Boolean)
        .join(' · ')}
      end={<Badge tone={partner.licenseActive ? 'accent' : 'neutral'}>{partner.licenseLevel}</Badge>}
    />
  );
};
